import type { ReactNode } from 'react';

/** An outcome page's panel: an icon, the page's title, a sentence and what to do next (as antd's Result). */
export function ResultPanel({
  icon,
  title,
  text,
  children,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <section className="fv-result">
      <div className="fv-result-icon">{icon}</div>
      <h1 className="fv-result-heading">{title}</h1>
      <p className="fv-muted">{text}</p>
      <div className="fv-actions fv-result-actions">{children}</div>
    </section>
  );
}

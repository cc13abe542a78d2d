/** SPEC §2: full screen, top text, bottom text, three pulsing dots, fading in over 0.5 s. */
export function LoadingOverlay({ topText, bottomText }: { topText: string; bottomText: string }) {
  return (
    <div className="fv-overlay" role="alertdialog" aria-live="assertive" aria-label={topText}>
      <p className="fv-overlay-top">{topText}</p>
      <div className="fv-dots" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <p className="fv-overlay-bottom">{bottomText}</p>
    </div>
  );
}

import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { useId, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';

/*
 * Forms in plain markup, drawn and behaving as antd's Form did here: each field's rule runs as it changes and
 * on submit, its message sits under it (nothing moves when it appears). The account and feedback pages a
 * visitor opens on a phone load no antd.
 */

/** A field's rule: its message, or null when the value is fine. */
export type Rule = (value: string) => string | null;

export interface TextFieldState {
  value: string;
  error: string | null;
  change(value: string): void;
  /** Runs the rule now (on submit); true when the value is fine. */
  validate(): boolean;
  reset(): void;
}

export function useTextField(rule: Rule, initial = ''): TextFieldState {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  return {
    value,
    error,
    change: (next) => {
      setValue(next);
      setError(rule(next));
    },
    validate: () => {
      const problem = rule(value);
      setError(problem);
      return problem === null;
    },
    reset: () => {
      setValue(initial);
      setError(null);
    },
  };
}

/** Runs every field's rule (each shows its message) and answers whether all passed. */
export const validateAll = (...fields: { validate(): boolean }[]) =>
  fields.map((f) => f.validate()).every(Boolean);

/** A labelled field with its message under it. */
export function Field(props: {
  label: ReactNode;
  error: string | null;
  children: (id: string, errorId: string) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`fv-field${props.error ? ' fv-field-invalid' : ''}`}>
      <label htmlFor={id}>{props.label}</label>
      {props.children(id, errorId)}
      {props.error && (
        <div id={errorId} className="fv-field-error" role="alert">
          {props.error}
        </div>
      )}
    </div>
  );
}

const invalid = (error: string | null, errorId: string) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? errorId : undefined,
});

export function TextField({
  label,
  field,
  type = 'text',
  autoComplete,
  multiline = false,
}: {
  label: string;
  field: TextFieldState;
  type?: 'text' | 'email';
  autoComplete?: string;
  multiline?: boolean;
}) {
  return (
    <Field label={label} error={field.error}>
      {(id, errorId) =>
        multiline ? (
          <textarea
            id={id}
            className="fv-input fv-textarea"
            rows={5}
            value={field.value}
            onChange={(e) => field.change(e.target.value)}
            {...invalid(field.error, errorId)}
          />
        ) : (
          <input
            id={id}
            className="fv-input"
            type={type}
            autoComplete={autoComplete}
            value={field.value}
            onChange={(e) => field.change(e.target.value)}
            {...invalid(field.error, errorId)}
          />
        )
      }
    </Field>
  );
}

/** A password with a button that shows it as text (named 'Show' / 'Hide', as antd's). */
export function PasswordField({
  label,
  field,
  autoComplete,
}: {
  label: string;
  field: TextFieldState;
  autoComplete: 'current-password' | 'new-password';
}) {
  const [shown, setShown] = useState(false);
  return (
    <Field label={label} error={field.error}>
      {(id, errorId) => (
        <div className="fv-password">
          <input
            id={id}
            className="fv-input"
            type={shown ? 'text' : 'password'}
            autoComplete={autoComplete}
            value={field.value}
            onChange={(e) => field.change(e.target.value)}
            {...invalid(field.error, errorId)}
          />
          <button
            type="button"
            className="fv-password-toggle"
            aria-label={shown ? 'Hide' : 'Show'}
            aria-pressed={shown}
            onClick={() => setShown(!shown)}
          >
            {shown ? <EyeOutlined /> : <EyeInvisibleOutlined />}
          </button>
        </div>
      )}
    </Field>
  );
}

/** A checkbox with its label beside it, and its message under it when its rule fails. */
export function CheckboxField({
  checked,
  onChange,
  error = null,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | null;
  children: ReactNode;
}) {
  const errorId = useId();
  return (
    <div className={`fv-field fv-check-field${error ? ' fv-field-invalid' : ''}`}>
      <label className="fv-check">
        <input
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          {...invalid(error, errorId)}
        />
        <span>{children}</span>
      </label>
      {error && (
        <div id={errorId} className="fv-field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

/** The account pages' card: the page's h1 as its title, then the form. */
export function FormCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="fv-form-card fv-light-card">
      <h1 className="fv-light-card-title">{title}</h1>
      <div className="fv-light-card-body">{children}</div>
    </section>
  );
}

/** A form that never lets the browser submit it: `onSubmit` runs instead. */
export function PlainForm({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

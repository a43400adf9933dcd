import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Field } from '../../components/Field';
import { FormAlert } from '../../components/Status';
import { formFeedback } from '../../form-errors';
import { copyOrSelect, recoveryCodesFile, refusedField, retryWords } from './second-factor';

/** A step's heading, focused when the step appears: the button that led here has just been replaced by it. */
export function StepHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h3 ref={ref} tabIndex={-1}>
      {children}
    </h3>
  );
}

interface PasswordStepProps {
  title: string;
  children: ReactNode;
  submitLabel: string;
  pendingLabel: string;
  danger?: boolean;
  pending: boolean;
  error: unknown;
  /** Resolves once the server answered; the step is replaced by the next one on success. */
  onSubmit(password: string): Promise<unknown>;
  onCancel(): void;
  /** What a refusal particular to this step means (a 409), or null for the usual words. */
  explain?(error: unknown): ReactNode | null;
  /** An account made by single sign-on has no password: a recent sign-in stands in for it. */
  passwordless?: boolean;
}

/** Asks for the password before a change to the second factor: a session alone is not enough for one. */
export function PasswordStep(props: PasswordStepProps) {
  const { title, children, submitLabel, pendingLabel, danger, pending, error, onSubmit, onCancel, explain } = props;
  const { passwordless = false } = props;
  const [password, setPassword] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const wrong = refusedField(error, 'password');
  const retry = retryWords(error);
  const explained = explain?.(error) ?? null;
  const summary =
    wrong || retry !== null || explained !== null ? null : formFeedback(error, { password: 'Password' }).summary;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await onSubmit(password);
    // Still here: refused. A wrong password is typed again from nothing.
    setPassword('');
    input.current?.focus();
  };

  return (
    <form onSubmit={submit} className="second-factor-step">
      <StepHeading>{title}</StepHeading>
      {children}
      {passwordless ? (
        <p className="hint">
          You sign in through single sign-on, without a password: this works within ten minutes of signing in.
        </p>
      ) : (
        <Field
          ref={input}
          label="Your password"
          type="password"
          autoComplete="current-password"
          required
          error={wrong ? 'This is not your password.' : undefined}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      )}
      {retry !== null && (
        <div className="notice notice-error" role="alert">
          <p>Too many wrong passwords. Try again {retry}.</p>
        </div>
      )}
      {explained !== null && (
        <div className="notice notice-error" role="alert">
          {explained}
        </div>
      )}
      <FormAlert summary={summary} />
      <div className="actions actions-start">
        <button type="submit" className={danger ? 'button-danger' : 'button-primary'} disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

interface RecoveryCodesStepProps {
  title: string;
  codes: readonly string[];
  email: string;
  onDone(): void;
}

/** The ten recovery codes, shown this once: copied, downloaded or written down before the step is closed. */
export function RecoveryCodesStep({ title, codes, email, onDone }: RecoveryCodesStepProps) {
  const list = useRef<HTMLOListElement>(null);
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const text = codes.join('\n');
  // A data: address rather than a blob: nothing to revoke, and the dashboard's policy already allows data:.
  const file = `data:text/plain;charset=utf-8,${encodeURIComponent(recoveryCodesFile(email, codes))}`;

  const copyAll = async () => setCopied((await copyOrSelect(text, list.current)) ? 'copied' : 'failed');

  return (
    <div className="second-factor-step">
      <StepHeading>{title}</StepHeading>
      <p className="notice notice-warn">
        <strong>Save these codes somewhere safe, away from your phone. They are shown only now.</strong>
      </p>
      <p>If you lose your phone or passkey, each code lets you sign in once in its place.</p>
      <ol ref={list} className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="actions actions-start">
        <button type="button" onClick={() => void copyAll()}>
          Copy all
        </button>
        <a className="button-like" href={file} download="quire-recovery-codes.txt">
          Download (.txt)
        </a>
        <button type="button" className="button-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
      <p className="hint" role="status">
        {copied === 'copied'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'Could not copy: the codes are selected, copy them yourself.'
            : ''}
      </p>
    </div>
  );
}

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { call, client } from '../../api';
import { Field } from '../../components/Field';
import { FormAlert, Loading } from '../../components/Status';
import { formFeedback } from '../../form-errors';
import { useWrite } from '../../queries';
import { copyOrSelect, groupSecret, refusedField, retryWords, SECOND_FACTOR_KEY } from './second-factor';
import { StepHeading } from './SecondFactorSteps';

/** The QR code of `uri` as an SVG image; the library is its own chunk, loaded by the one screen that draws one. */
function useQrCode(uri: string): { src: string | null; failed: boolean } {
  const [state, setState] = useState<{ src: string | null; failed: boolean }>({ src: null, failed: false });
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qrcode) => qrcode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then(
        (svg) =>
          live && setState({ src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, failed: false }),
        () => live && setState({ src: null, failed: true }),
      );
    return () => {
      live = false;
    };
  }, [uri]);
  return state;
}

interface Props {
  secret: string;
  uri: string;
  onConfirmed(recoveryCodes: string[]): void;
  onCancel(): void;
}

/** Setting up: the app scans the QR code (or takes the key typed in), then its first code turns the factor on. */
export function TotpSetup({ secret, uri, onConfirmed, onCancel }: Props) {
  const qr = useQrCode(uri);
  const shown = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  // Copied whole: the spaces are for reading.
  const copyKey = async () => setCopied((await copyOrSelect(secret, shown.current)) ? 'copied' : 'failed');
  const [code, setCode] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const confirm = useWrite(
    (typed: string) => call(client.POST('/account/second-factor/totp/confirm', { body: { code: typed } })),
    [SECOND_FACTOR_KEY],
  );

  const wrong = refusedField(confirm.error, 'code');
  const retry = retryWords(confirm.error);
  const feedback =
    wrong || retry !== null ? { fields: {}, summary: null } : formFeedback(confirm.error, { code: 'Code' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await confirm.execute(code.replace(/\s+/g, ''));
    if (answer) return onConfirmed(answer.recoveryCodes);
    setCode('');
    input.current?.focus();
  };

  return (
    <div className="second-factor-step">
      <StepHeading>Scan this QR code with your authenticator app</StepHeading>
      <p>
        In Google Authenticator, 1Password, Aegis or any app that makes 6-digit codes, add an account and scan the code.
      </p>
      <div className="totp-pair">
        <figure className="totp-qr">
          {qr.src !== null ? (
            <img
              src={qr.src}
              width={200}
              height={200}
              alt="QR code for your authenticator app. If you cannot scan it, type the setup key instead."
            />
          ) : qr.failed ? (
            <p className="hint">The QR code could not be drawn here: type the setup key instead.</p>
          ) : (
            <Loading label="Drawing the QR code…" />
          )}
        </figure>
        <div className="totp-key">
          <p className="totp-key-label">Setup key</p>
          {/* Text, not an input: the whole key stays in view on a phone, wrapping between its groups of four. */}
          <code ref={shown} className="totp-secret" data-secret>
            {groupSecret(secret)}
          </code>
          <p className="hint">
            Can’t scan? Type this key into the app instead, as a time-based key. Spaces do not matter.
          </p>
          <div className="actions actions-start">
            <button type="button" onClick={() => void copyKey()}>
              Copy key
            </button>
          </div>
          <p className="hint" role="status">
            {copied === 'copied'
              ? 'Copied to the clipboard.'
              : copied === 'failed'
                ? 'Could not copy: the key is selected, copy it yourself.'
                : ''}
          </p>
        </div>
      </div>
      <form onSubmit={submit} className="stack">
        <Field
          ref={input}
          label="6-digit code from the app"
          autoComplete="one-time-code"
          inputMode="numeric"
          required
          maxLength={9}
          className="code-field"
          hint="The app shows a new code every 30 seconds; enter the one it shows now."
          error={
            wrong
              ? 'This code is not right. Enter the code the app shows now, and check that the phone’s clock is set automatically.'
              : feedback.fields.code
          }
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        {retry !== null && (
          <div className="notice notice-error" role="alert">
            <p>Too many wrong codes. Try again {retry}.</p>
          </div>
        )}
        <FormAlert summary={feedback.summary} />
        <div className="actions actions-start">
          <button type="submit" className="button-primary" disabled={confirm.pending}>
            {confirm.pending ? 'Confirming…' : 'Confirm'}
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { call, client, type ApiError } from '../../api';
import { Field } from '../../components/Field';
import { Badge, ErrorMessage, FormAlert, Loading } from '../../components/Status';
import { formFeedback } from '../../form-errors';
import { formatTime } from '../../hooks';
import { useApi, useWrite } from '../../queries';
import { useSession } from '../../session';
import { createPasskey, PASSKEYS_KEY, passkeysSupported, PasskeyPromptError } from './passkeys';
import { conflictReason, listWords, refusedField, SECOND_FACTOR_KEY } from './second-factor';
import { PasswordStep, RecoveryCodesStep, StepHeading } from './SecondFactorSteps';
import { timeAgo } from './time';

type Passkey = { id: string; name: string; createdAt: string; lastUsedAt: string | null; synced: boolean };

type Step =
  | { kind: 'list' }
  | { kind: 'add' }
  | { kind: 'rename'; passkey: Passkey }
  | { kind: 'remove'; passkey: Passkey }
  | { kind: 'codes'; codes: string[] };

/** What a refusal of adding or removing a passkey means, beyond the password step's usual words. */
function explain(error: unknown) {
  if (error instanceof PasskeyPromptError) return <p>{error.message}</p>;
  if (refusedField(error, 'credential'))
    return <p>Quire could not verify the passkey your browser made. Try adding it again.</p>;
  if (conflictReason(error) === 'passkeys_max')
    return <p>Your account holds as many passkeys as it can: remove one first.</p>;
  if (conflictReason(error) === 'second_factor_required') {
    const named = (error as ApiError).details?.workspaces;
    const names = Array.isArray(named) ? named.filter((n): n is string => typeof n === 'string') : [];
    return (
      <p>
        This is your last second factor, and {names.length > 0 ? listWords(names) : 'a workspace of yours'}{' '}
        {names.length === 1 ? 'requires' : 'require'} one of every member. Set up an authenticator app or add another
        passkey first.
      </p>
    );
  }
  return null;
}

function RenameStep({ passkey, onDone }: { passkey: Passkey; onDone(message?: string): void }) {
  const [name, setName] = useState(passkey.name);
  const rename = useWrite(
    (to: string) =>
      call(client.PATCH('/account/passkeys/{id}', { params: { path: { id: passkey.id } }, body: { name: to } })),
    [PASSKEYS_KEY],
  );
  const feedback = formFeedback(rename.error, { name: 'Name' });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const renamed = await rename.execute(name.trim());
    if (renamed) onDone(`Renamed to “${renamed.name}”.`);
  };
  return (
    <form onSubmit={submit} className="second-factor-step">
      <StepHeading>Rename “{passkey.name}”</StepHeading>
      <Field
        label="Name"
        required
        maxLength={100}
        error={feedback.fields.name}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <FormAlert summary={feedback.summary} />
      <div className="actions actions-start">
        <button type="submit" className="button-primary" disabled={rename.pending}>
          {rename.pending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Account → Two-factor authentication → Passkeys: added with the password and the browser's prompt, renamed,
 * removed with the password. The first second factor of an account brings recovery codes, shown once.
 */
export function Passkeys({ hasPassword }: { hasPassword: boolean }) {
  const { session, refresh } = useSession();
  const list = useApi(PASSKEYS_KEY, () => call(client.GET('/account/passkeys')));
  const [step, setStep] = useState<Step>({ kind: 'list' });
  const [name, setName] = useState('');
  const [message, setMessage] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const [refocus, setRefocus] = useState(0);
  const supported = passkeysSupported();

  const add = useWrite(
    async (password: string, named: string) => {
      const optionsJSON = await call(client.POST('/account/passkeys/registration', { body: { password } }));
      const credential = await createPasskey(optionsJSON);
      return call(
        client.POST('/account/passkeys', { body: { credential, ...(named.trim() ? { name: named.trim() } : {}) } }),
      );
    },
    [PASSKEYS_KEY, SECOND_FACTOR_KEY],
  );
  const remove = useWrite(
    (id: string, password: string) =>
      call(client.POST('/account/passkeys/{id}/remove', { params: { path: { id } }, body: { password } })),
    [PASSKEYS_KEY, SECOND_FACTOR_KEY],
  );

  useEffect(() => {
    if (refocus > 0) heading.current?.focus();
  }, [refocus]);

  const open = (next: Step) => {
    add.setError(null);
    remove.setError(null);
    setMessage('');
    setName('');
    setStep(next);
  };
  const close = (said = '') => {
    setStep({ kind: 'list' });
    setMessage(said);
    setRefocus((n) => n + 1);
  };

  const passkeys = list.data ?? [];

  return (
    <div className="passkeys" aria-labelledby="passkeys-title">
      <h3 id="passkeys-title" ref={heading} tabIndex={-1}>
        Passkeys
      </h3>
      <p className="hint">
        A passkey is kept by this device, your phone, a password manager or a security key, and unlocked with your
        fingerprint, face or PIN. Use it after your password, or to sign in without one.
      </p>
      {!supported && <p className="notice notice-warn">This browser cannot use passkeys.</p>}
      {list.state === 'error' && <ErrorMessage error={list.error} onRetry={list.reload} />}
      {list.state === 'loading' && !list.data && <Loading label="Loading passkeys…" />}
      {passkeys.length > 0 && (
        <ul className="passkey-list" aria-labelledby="passkeys-title" aria-busy={list.state === 'loading'}>
          {passkeys.map((passkey) => {
            const used =
              passkey.lastUsedAt === null ? null : (timeAgo(passkey.lastUsedAt) ?? formatTime(passkey.lastUsedAt));
            return (
              <li key={passkey.id} className="passkey" data-passkey-id={passkey.id}>
                <div className="passkey-about">
                  <h4 className="passkey-name">
                    {passkey.name}
                    {passkey.synced && <Badge tone="neutral">Synced</Badge>}
                  </h4>
                  <p className="passkey-facts">
                    Added <time dateTime={passkey.createdAt}>{formatTime(passkey.createdAt)}</time> ·{' '}
                    {used === null ? 'Not used yet' : <>Last used {used}</>}
                  </p>
                </div>
                <div className="passkey-actions">
                  <button type="button" onClick={() => open({ kind: 'rename', passkey })}>
                    Rename<span className="visually-hidden"> {passkey.name}</span>
                  </button>
                  <button
                    type="button"
                    className="button-danger-quiet"
                    onClick={() => open({ kind: 'remove', passkey })}
                  >
                    Remove<span className="visually-hidden"> {passkey.name}</span>
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <p role="status" className="success-text">
        {message}
      </p>
      {step.kind === 'list' && list.data && (
        <div className="actions actions-start">
          <button type="button" className="button-primary" disabled={!supported} onClick={() => open({ kind: 'add' })}>
            Add a passkey
          </button>
        </div>
      )}

      {step.kind === 'add' && (
        <PasswordStep
          passwordless={!hasPassword}
          title="Add a passkey"
          submitLabel="Continue"
          pendingLabel="Waiting for your passkey…"
          pending={add.pending}
          error={add.error}
          explain={explain}
          onCancel={() => close()}
          onSubmit={async (password) => {
            const added = await add.execute(password, name);
            if (!added) return;
            void refresh();
            if (added.recoveryCodes) setStep({ kind: 'codes', codes: added.recoveryCodes });
            else close(`Passkey “${added.passkey.name}” added.`);
          }}
        >
          <p>Enter your password, then follow your browser’s prompt to make the passkey.</p>
          <Field
            label="Name (optional)"
            maxLength={100}
            hint="Where it is kept, such as “Work laptop” or “1Password”. Left empty, it is named after this device."
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </PasswordStep>
      )}
      {step.kind === 'rename' && <RenameStep passkey={step.passkey} onDone={(said) => close(said)} />}
      {step.kind === 'remove' && (
        <PasswordStep
          passwordless={!hasPassword}
          title={`Remove “${step.passkey.name}”`}
          submitLabel="Remove"
          pendingLabel="Removing…"
          danger
          pending={remove.pending}
          error={remove.error}
          explain={explain}
          onCancel={() => close()}
          onSubmit={async (password) => {
            if (!(await remove.execute(step.passkey.id, password))) return;
            await refresh();
            close(`Passkey “${step.passkey.name}” removed.`);
          }}
        >
          <p>It will no longer sign you in. Remove it from the device or password manager that keeps it too.</p>
        </PasswordStep>
      )}
      {step.kind === 'codes' && (
        <RecoveryCodesStep
          title="Your passkey is on: save your recovery codes"
          codes={step.codes}
          email={session.user.email}
          onDone={() => close('Passkey added. Signing in now asks for it after your password.')}
        />
      )}
    </div>
  );
}

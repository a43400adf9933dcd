import { useEffect, useRef, useState } from 'react';
import { call, client, type ApiError } from '../../api';
import { Badge, ErrorMessage, Loading } from '../../components/Status';
import { useApi, useWrite } from '../../queries';
import { useSession } from '../../session';
import { conflictReason, listWords, SECOND_FACTOR_KEY } from './second-factor';
import { Passkeys } from './Passkeys';
import { PasswordStep, RecoveryCodesStep } from './SecondFactorSteps';
import { TotpSetup } from './TotpSetup';
import './second-factor.css';

type Step =
  | { kind: 'status' }
  | { kind: 'password'; purpose: 'setup' | 'renew' | 'off' }
  | { kind: 'scan'; secret: string; uri: string }
  | { kind: 'codes'; codes: string[]; renewed: boolean };

const requires = (names: readonly string[]) => `${listWords(names)} ${names.length === 1 ? 'requires' : 'require'}`;

/** Turning off refused while a workspace requires a second factor: which ones, and who can change that. */
function explainOff(error: unknown) {
  if (conflictReason(error) !== 'second_factor_required') return null;
  const named = (error as ApiError).details?.workspaces;
  const names = Array.isArray(named) ? named.filter((n): n is string => typeof n === 'string') : [];
  return (
    <p>
      You cannot turn it off while {names.length > 0 ? requires(names) : 'a workspace of yours requires'} a second
      factor of every member. Its owner can stop requiring one on the workspace’s Members screen.
    </p>
  );
}

function explainSetup(error: unknown) {
  if (conflictReason(error) !== 'second_factor_on') return null;
  return <p>An authenticator app is already on for your account (set up in another tab?). Reload this page.</p>;
}

/**
 * Account → Two-factor authentication: an authenticator app's codes after the password, passkeys (Passkeys.tsx), and
 * the recovery codes either brings.
 */
export function SecondFactor() {
  const { session, refresh } = useSession();
  const status = useApi(SECOND_FACTOR_KEY, () => call(client.GET('/account/second-factor')));
  const [step, setStep] = useState<Step>({ kind: 'status' });
  const [message, setMessage] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const [refocus, setRefocus] = useState(0);

  const begin = useWrite((password: string) =>
    call(client.POST('/account/second-factor/totp', { body: { password } })),
  );
  const renew = useWrite(
    (password: string) => call(client.POST('/account/second-factor/recovery-codes', { body: { password } })),
    [SECOND_FACTOR_KEY],
  );
  const off = useWrite(
    (password: string) => call(client.POST('/account/second-factor/totp/off', { body: { password } })),
    [SECOND_FACTOR_KEY],
  );

  useEffect(() => {
    if (refocus > 0) heading.current?.focus();
  }, [refocus]);

  const open = (purpose: 'setup' | 'renew' | 'off') => {
    for (const write of [begin, renew, off]) write.setError(null);
    setMessage('');
    setStep({ kind: 'password', purpose });
  };
  const close = (said = '') => {
    setStep({ kind: 'status' });
    setMessage(said);
    setRefocus((n) => n + 1);
  };

  const data = status.data;
  const on = data?.totp ?? false;
  // Recovery codes come with the first second factor, whichever it is.
  const anyFactor = on || (data?.passkeys ?? 0) > 0;
  const requiredBy = data?.requiredBy ?? [];

  return (
    <section className="panel" aria-labelledby="second-factor-title">
      <h2 id="second-factor-title" ref={heading} tabIndex={-1}>
        Two-factor authentication
      </h2>
      <p className="hint second-factor-intro">
        After your password, signing in asks for a code from an authenticator app on your phone or for a passkey, so a
        stolen password is not enough. Recovery codes let you in if you lose them.
      </p>
      {status.state === 'error' && <ErrorMessage error={status.error} onRetry={status.reload} />}
      {status.state === 'loading' && !data && <Loading label="Loading two-factor authentication…" />}
      {data && (
        <dl className="second-factor-facts" aria-busy={status.state === 'loading'}>
          <div>
            <dt>Authenticator app</dt>
            <dd>{on ? <Badge tone="good">On</Badge> : <Badge tone="neutral">Off</Badge>}</dd>
          </div>
          {anyFactor && (
            <div>
              <dt>Recovery codes left</dt>
              <dd>{data.recoveryCodesLeft}</dd>
            </div>
          )}
          {requiredBy.length > 0 && (
            <div>
              <dt>Required by</dt>
              <dd>{listWords(requiredBy)}</dd>
            </div>
          )}
        </dl>
      )}
      {data && !anyFactor && requiredBy.length > 0 && step.kind === 'status' && (
        <p className="notice notice-warn">
          {requires(requiredBy)} a second factor of every member: set one up to use{' '}
          {requiredBy.length === 1 ? 'it' : 'them'} again.
        </p>
      )}
      {data && anyFactor && data.recoveryCodesLeft <= 3 && step.kind === 'status' && (
        <p className="notice notice-warn">
          {data.recoveryCodesLeft === 0 ? 'No recovery codes are left' : 'Few recovery codes are left'}: make new ones,
          so that losing your phone does not lock you out.
        </p>
      )}
      <p role="status" className="success-text">
        {message}
      </p>

      {data && step.kind === 'status' && (
        <div className="actions actions-start">
          {on ? (
            <button type="button" className="button-danger-quiet" onClick={() => open('off')}>
              Turn off the app
            </button>
          ) : (
            <button type="button" className="button-primary" onClick={() => open('setup')}>
              Set up an app
            </button>
          )}
          {anyFactor && (
            <button type="button" onClick={() => open('renew')}>
              New recovery codes
            </button>
          )}
        </div>
      )}

      {step.kind === 'password' && step.purpose === 'setup' && (
        <PasswordStep
          passwordless={status.data?.hasPassword === false}
          title="Set up an authenticator app"
          submitLabel="Continue"
          pendingLabel="Checking…"
          pending={begin.pending}
          error={begin.error}
          explain={explainSetup}
          onCancel={() => close()}
          onSubmit={async (password) => {
            const answer = await begin.execute(password);
            if (answer) setStep({ kind: 'scan', ...answer });
          }}
        >
          <p>Enter your password to start. You will need your phone with an authenticator app on it.</p>
        </PasswordStep>
      )}
      {step.kind === 'password' && step.purpose === 'renew' && (
        <PasswordStep
          passwordless={status.data?.hasPassword === false}
          title="Make new recovery codes"
          submitLabel="Make new codes"
          pendingLabel="Making…"
          pending={renew.pending}
          error={renew.error}
          onCancel={() => close()}
          onSubmit={async (password) => {
            const answer = await renew.execute(password);
            if (answer) setStep({ kind: 'codes', codes: answer.recoveryCodes, renewed: true });
          }}
        >
          <p>Ten new codes replace the ones you have: the old ones stop working at once.</p>
        </PasswordStep>
      )}
      {step.kind === 'password' && step.purpose === 'off' && (
        <PasswordStep
          passwordless={status.data?.hasPassword === false}
          title="Turn off two-factor authentication"
          submitLabel="Turn off"
          pendingLabel="Turning off…"
          danger
          pending={off.pending}
          error={off.error}
          explain={explainOff}
          onCancel={() => close()}
          onSubmit={async (password) => {
            if (!(await off.execute(password))) return;
            // A workspace's secondFactorMissing is in the session: read it again.
            await refresh();
            close(
              (data?.passkeys ?? 0) > 0
                ? 'The authenticator app is off. Signing in asks for a passkey after your password.'
                : 'Two-factor authentication is off. Signing in asks for your password alone.',
            );
          }}
        >
          <p>
            {(data?.passkeys ?? 0) > 0
              ? 'Its codes will stop working; your passkeys and recovery codes stay.'
              : 'Signing in will ask for your password alone, and your recovery codes will stop working.'}
          </p>
        </PasswordStep>
      )}
      {step.kind === 'scan' && (
        <TotpSetup
          secret={step.secret}
          uri={step.uri}
          onCancel={() => close()}
          onConfirmed={(codes) => {
            setStep({ kind: 'codes', codes, renewed: false });
            // A workspace that required a second factor opens now: the session says so once read again.
            void refresh();
          }}
        />
      )}
      {step.kind === 'codes' && (
        <RecoveryCodesStep
          title={step.renewed ? 'Your new recovery codes' : 'Two-factor authentication is on: save your recovery codes'}
          codes={step.codes}
          email={session.user.email}
          onDone={() =>
            close(
              step.renewed
                ? 'New recovery codes saved. The old ones no longer work.'
                : 'Two-factor authentication is on.',
            )
          }
        />
      )}
      {data && <Passkeys hasPassword={data.hasPassword} />}
    </section>
  );
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponses } from '../../http/responses.js';
import type { DashboardServices } from './dashboard.services.js';
import { Session } from './dashboard.schemas.js';
import {
  AuthenticationOptions,
  Passkey,
  PasskeyAdded,
  PasskeyChallengeBody,
  PasskeyParams,
  PasskeyPasswordBody,
  PasskeyRegistrationBody,
  PasskeyRemoved,
  PasskeyRenameBody,
  PasskeySecondFactorBody,
  PasskeySignInBody,
  RegistrationOptions,
} from './passkeys.schemas.js';
import { clientOf, handOver } from './sessions.routes.js';

const tags = ['dashboard'];
const anonymous = { anonymous: true } as const;

/** Passkeys: the account's list, adding and removing them, and signing in with one (docs/team.md, "Passkeys"). */
export const passkeyRoutes: FastifyPluginAsyncTypebox<{ dashboard: DashboardServices }> = async (
  app,
  { dashboard },
) => {
  const { passkeys, sessions } = dashboard;

  app.get(
    '/account/passkeys',
    { schema: { tags, response: { 200: Type.Array(Passkey), ...ErrorResponses } } },
    (request) => passkeys.list(request.dashboardSession),
  );

  app.post(
    '/account/passkeys/registration',
    {
      schema: {
        tags,
        description: 'The options for navigator.credentials.create() (startRegistration), after the password.',
        body: PasskeyPasswordBody,
        response: { 200: RegistrationOptions, ...ErrorResponses },
      },
    },
    (request) => passkeys.beginRegistration(request.dashboardSession, request.body.password, clientOf(request)),
  );

  app.post(
    '/account/passkeys',
    { schema: { tags, body: PasskeyRegistrationBody, response: { 201: PasskeyAdded, ...ErrorResponses } } },
    async (request, reply) => {
      const added = await passkeys.finishRegistration(
        request.dashboardSession,
        request.body.credential,
        request.body.name,
        clientOf(request),
      );
      return reply.code(201).send(added);
    },
  );

  app.patch(
    '/account/passkeys/:id',
    { schema: { tags, params: PasskeyParams, body: PasskeyRenameBody, response: { 200: Passkey, ...ErrorResponses } } },
    (request) => passkeys.rename(request.dashboardSession, request.params.id, request.body.name),
  );

  app.post(
    '/account/passkeys/:id/remove',
    {
      schema: {
        tags,
        params: PasskeyParams,
        body: PasskeyPasswordBody,
        response: { 200: PasskeyRemoved, ...ErrorResponses },
      },
    },
    (request) => passkeys.remove(request.dashboardSession, request.params.id, request.body.password, clientOf(request)),
  );

  app.post(
    '/session/second-factor/passkey/options',
    {
      config: anonymous,
      schema: { tags, body: PasskeyChallengeBody, response: { 200: AuthenticationOptions, ...ErrorResponses } },
    },
    (request) => passkeys.secondFactorOptions(request.body.challenge),
  );

  app.post(
    '/session/second-factor/passkey',
    {
      config: anonymous,
      schema: { tags, body: PasskeySecondFactorBody, response: { 200: Session, ...ErrorResponses } },
    },
    async (request, reply) => {
      const started = await passkeys.completeSecondFactor(
        request.body.challenge,
        request.body.credential,
        clientOf(request),
      );
      return handOver(sessions, request, reply, started);
    },
  );

  app.post(
    '/session/passkey/options',
    {
      config: anonymous,
      schema: {
        tags,
        description: 'The options for a sign-in without a password: any passkey of this site the browser holds.',
        response: { 200: AuthenticationOptions, ...ErrorResponses },
      },
    },
    () => passkeys.passwordlessOptions(),
  );

  app.post(
    '/session/passkey',
    { config: anonymous, schema: { tags, body: PasskeySignInBody, response: { 200: Session, ...ErrorResponses } } },
    async (request, reply) => {
      const started = await passkeys.signInWithPasskey(request.body.credential, clientOf(request), request.log);
      return handOver(sessions, request, reply, started);
    },
  );
};

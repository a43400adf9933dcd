import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { browserFrom, send, signIn, signInRequest, userWithPassword } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';
import { linkIn, startMailServer, type MailServer } from '../helpers/smtp.js';

const tokenOf = (link: string) => link.slice(link.indexOf('#') + 1);

describeEachDialect('password reset by email', (dialect) => {
  let mail: MailServer;
  let ctx: TestContext;
  beforeAll(async () => {
    mail = await startMailServer();
    ctx = await buildTestApp(dialect, {
      env: { QUIRE_SMTP_URL: mail.url, QUIRE_PUBLIC_URL: 'https://cms.example.com' },
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await mail?.close();
  });

  const request = (email: string, remoteAddress = '10.1.1.1') =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/dashboard/password-reset', payload: { email }, remoteAddress });
  const complete = (token: string, newPassword: string) =>
    send(ctx, null, 'POST', '/password-reset/complete', { token, newPassword });

  it('mails a one-hour link that sets a new password, ends every session and every other link', async () => {
    const user = await userWithPassword(ctx);
    const elsewhere = await signIn(ctx, user, '10.0.0.2');
    const since = mail.messages.length;
    const asked = await request(user.email.toUpperCase());
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toEqual({ requested: true });
    const first = await mail.next(user.email, since);
    expect(first.subject).toBe('Reset your Quire password');
    expect(first.from).toMatch(/quire@cms\.example\.com/);
    const link = linkIn(first);
    expect(link).toMatch(/^https:\/\/cms\.example\.com\/dashboard\/reset-password#/);
    expect(first.html).toContain(`href="${link}"`);
    const row = await ctx.runtime.database.db.selectFrom('password_resets').selectAll().executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(3600_000);
    // Only the hash is kept.
    expect(row.token_hash).not.toContain(tokenOf(link));

    const before = mail.messages.length;
    await request(user.email);
    const second = tokenOf(linkIn(await mail.next(user.email, before)));

    const short = await complete(tokenOf(link), 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json().details.issues[0].path).toBe('/newPassword');

    const done = await complete(tokenOf(link), 'the new password');
    const fresh = browserFrom(done);
    expect(fresh.user.id).toBe(user.id);
    expect((await send(ctx, elsewhere, 'GET', '/session')).statusCode).toBe(401);
    expect((await send(ctx, fresh, 'GET', '/session')).statusCode).toBe(200);
    expect((await signInRequest(ctx, user.email, user.password)).statusCode).toBe(401);
    expect((await signInRequest(ctx, user.email, 'the new password')).statusCode).toBe(200);

    // Used, and the other link of the account with it.
    expect((await complete(tokenOf(link), 'another password')).statusCode).toBe(404);
    expect((await complete(second, 'another password')).statusCode).toBe(404);
  });

  it('answers an unknown email exactly as a known one, and mails nothing', async () => {
    const user = await userWithPassword(ctx);
    const known = await request(user.email, '10.2.2.2');
    const unknown = await request('nobody-here@example.com', '10.2.2.2');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    await mail.next(user.email);
    expect(mail.messages.some((m) => m.to.includes('nobody-here@example.com'))).toBe(false);
  });

  it('refuses an expired, used or forged link with one answer, changing nothing', async () => {
    const user = await userWithPassword(ctx);
    const since = mail.messages.length;
    await request(user.email, '10.3.3.3');
    const token = tokenOf(linkIn(await mail.next(user.email, since)));
    await ctx.runtime.database.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const answers = await Promise.all([token, 'B'.repeat(43), 'nope'].map((t) => complete(t, 'a fine password')));
    expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 404]);
    expect(new Set(answers.map((a) => a.json().message)).size).toBe(1);
    expect((await signInRequest(ctx, user.email, user.password)).statusCode).toBe(200);
  });

  it('throttles requests per address and account, known account or not', async () => {
    for (const email of ['throttled@example.com', (await userWithPassword(ctx)).email]) {
      const answers = [];
      for (let i = 0; i < 6; i += 1) answers.push((await request(email, '10.4.4.4')).statusCode);
      expect(answers, email).toEqual([202, 202, 202, 202, 202, 429]);
    }
    const refused = await request('throttled@example.com', '10.4.4.4');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Sign-in from that address is not touched by the reset requests.
    const user = await userWithPassword(ctx);
    for (let i = 0; i < 6; i += 1) await request(user.email, '10.5.5.5');
    expect((await signInRequest(ctx, user.email, user.password, { remoteAddress: '10.5.5.5' })).statusCode).toBe(200);
  });
});

describeEachDialect('password reset without SMTP', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
  });
  afterAll(() => ctx?.close());

  it('says the server sends no mail, for every email alike', async () => {
    const user = await userWithPassword(ctx);
    for (const email of [user.email, 'nobody@example.com']) {
      const answer = await send(ctx, null, 'POST', '/password-reset', { email });
      expect(answer.statusCode).toBe(409);
      expect(answer.json().details).toEqual({ reason: 'mail_off' });
    }
  });

  it('leaves it to the operator: quire user password sets a new one and ends the sessions', async () => {
    const user = await userWithPassword(ctx);
    const session = await signIn(ctx, user);
    const setPassword = (flags: Record<string, string | boolean>, stdin = '') =>
      COMMANDS['user password']!.run(ctx.runtime, { flags, readStdin: async () => stdin });
    await expect(setPassword({ email: user.email, password: 'short' })).rejects.toThrow(/8 to 1024/);
    await expect(setPassword({ email: user.email })).rejects.toThrow(/exactly one of/);
    await expect(setPassword({ email: 'nobody@example.com', password: 'long enough' })).rejects.toThrow(/not found/);
    expect((await send(ctx, session, 'GET', '/session')).statusCode).toBe(200);

    expect(await setPassword({ email: user.email, 'password-stdin': true }, 'from the operator\n')).toEqual({
      id: user.id,
      email: user.email,
    });
    expect((await send(ctx, session, 'GET', '/session')).statusCode).toBe(401);
    expect((await signInRequest(ctx, user.email, user.password)).statusCode).toBe(401);
    expect((await signInRequest(ctx, user.email, 'from the operator')).statusCode).toBe(200);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { send, signIn, userWithPassword } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';
import { filePart, png, uploadMedia } from '../helpers/media.js';

describeEachDialect('no secret reaches a log line, even at LOG_LEVEL=trace', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect, { env: { LOG_LEVEL: 'trace' } });
  });
  afterAll(() => ctx?.close());

  it('a whole upload, a key reveal and a dashboard sign-in and write log no key, cookie, token or password', async () => {
    const { key, keyId } = await ctx.ownerKey();
    const logsBefore = ctx.logs.length;

    const upload = await uploadMedia(ctx, key, [filePart(png(2, 2), 'logged.png'), { name: 'alt', data: 'Alt' }]);
    expect(upload.statusCode, upload.body).toBe(201);
    const revealed = await ctx.app.inject({
      method: 'POST',
      url: `${EXTERNAL}/api-keys/${keyId}/reveal`,
      headers: { 'x-api-key': key, authorization: 'Bearer not-a-real-scheme-secret' },
    });
    expect(revealed.statusCode, revealed.body).toBe(200);
    expect(revealed.json().key).toBe(key);

    const user = await userWithPassword(ctx, 'a password nobody may log');
    const browser = await signIn(ctx, user);
    const changed = await send(ctx, browser, 'POST', '/password', {
      currentPassword: user.password,
      newPassword: 'another password nobody may log',
    });
    expect(changed.statusCode, changed.body).toBe(200);

    const lines = ctx.logs.slice(logsBefore);
    // The plugin line that once carried the whole X-API-Key header is there, censored.
    const busboy = lines.find((line) => line.msg === 'Providing options to busboy');
    expect(busboy, 'the multipart plugin logs at trace').toBeDefined();
    expect(JSON.stringify(busboy)).toContain('[REDACTED]');
    const secrets = [
      key,
      key.slice('quire_live_'.length),
      user.password,
      'another password nobody may log',
      browser.cookie.slice('quire_session='.length),
      browser.csrfToken,
      'not-a-real-scheme-secret',
    ];
    for (const [index, line] of lines.entries()) {
      const text = JSON.stringify(line);
      for (const secret of secrets) expect(text.includes(secret), `line ${index}: ${text}`).toBe(false);
    }
    // Every request logged its line (the sign-in takes more than one), so the absence above is not for want of lines.
    expect(lines.filter((line) => line.msg === 'request completed').length).toBeGreaterThanOrEqual(4);
  });
});

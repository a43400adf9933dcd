import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createPasswords, DEFAULT_PASSWORD_COST } from './password.js';

describe('passwords', () => {
  it('hashes at scrypt N=2^17, r=8, p=1 by default, and checks the right password only', async () => {
    const passwords = createPasswords();
    const stored = await passwords.hash('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(await passwords.verify('correct horse battery staple', stored)).toBe(true);
    expect(await passwords.verify('correct horse battery stapler', stored)).toBe(false);
    expect(await passwords.verifyNothing('anything')).toBe(false);
  });

  it('checks a hash by the parameters it carries, so changing the cost keeps every password working', async () => {
    const cheap = createPasswords(10);
    const strong = createPasswords(DEFAULT_PASSWORD_COST);
    const madeCheap = await cheap.hash('a password');
    expect(madeCheap.split('$')[1]).toBe('1024');
    expect(await strong.verify('a password', madeCheap)).toBe(true);
    expect(await cheap.verify('a password', await strong.hash('a password'))).toBe(true);
    expect(await strong.verify('a password', 'bcrypt$whatever')).toBe(false);
  });

  it('asks for a hash made at a lower cost to be made again, never for one made at a higher cost', async () => {
    const [ten, eleven, twelve] = [createPasswords(10), createPasswords(11), createPasswords(12)];
    const made = await eleven.hash('a password');
    expect(twelve.needsRehash(made)).toBe(true);
    expect(eleven.needsRehash(made)).toBe(false);
    expect(ten.needsRehash(made)).toBe(false);
  });

  it('takes QUIRE_PASSWORD_COST from 10 to 20, 17 when unset, and names the variable when out of range', () => {
    expect(loadConfig({}).passwordCost).toBe(17);
    expect(loadConfig({ QUIRE_PASSWORD_COST: '18' }).passwordCost).toBe(18);
    for (const bad of ['9', '21', 'high', '17.5'])
      expect(() => loadConfig({ QUIRE_PASSWORD_COST: bad }), bad).toThrow(/QUIRE_PASSWORD_COST/);
  });
});

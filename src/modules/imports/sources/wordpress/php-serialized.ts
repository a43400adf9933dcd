/*
 * The strings of a PHP-serialized array (`a:2:{i:0;s:7:"noindex";i:1;s:8:"nofollow";}`), as Rank Math stores its
 * robots meta. Read by hand, defensively: lengths are in bytes (UTF-8), and anything not understood gives what
 * was read so far; objects (`O:`) are never made, only their strings read.
 */

export function serializedStrings(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: string[] = [];
  let at = 0;
  const expect = (char: string) => {
    if (bytes[at] !== char.charCodeAt(0)) throw new Error('unexpected');
    at += 1;
  };
  const number = (): number => {
    const start = at;
    while (at < bytes.length && bytes[at] !== 0x3b && bytes[at] !== 0x3a) at += 1;
    const value = Number(bytes.subarray(start, at).toString('latin1'));
    if (!Number.isFinite(value)) throw new Error('not a number');
    return value;
  };
  const value = (depth: number): void => {
    if (depth > 8) throw new Error('too deep');
    const type = String.fromCharCode(bytes[at] ?? 0);
    at += 1;
    if (type === 'N') return expect(';');
    expect(':');
    if (type === 'i' || type === 'd' || type === 'b') {
      number();
      return expect(';');
    }
    if (type === 's') {
      const length = number();
      expect(':');
      expect('"');
      if (length < 0 || at + length > bytes.length) throw new Error('string past the end');
      const string = bytes.subarray(at, at + length).toString('utf8');
      at += length;
      expect('"');
      expect(';');
      out.push(string);
      return;
    }
    if (type === 'a') {
      const count = number();
      expect(':');
      expect('{');
      for (let i = 0; i < count; i += 1) {
        const before = out.length;
        value(depth + 1);
        out.length = before; // keys are not values
        value(depth + 1);
      }
      return expect('}');
    }
    throw new Error('unknown type');
  };
  try {
    value(0);
  } catch {
    // What was read before the first thing not understood.
  }
  return out;
}

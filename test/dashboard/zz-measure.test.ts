import { it } from 'vitest';
import { bodyText, plainText, BLOCK_LIMITS, type Block } from '@quire/blocks';
import { syllableCount } from '../../src/modules/seo/readability.js';

const sentence = (i: number) => `The **writer** of post ${i} explains how [starters](/guides/s${i}) rise overnight in a warm kitchen. Then feed it again.`;
const blocks: Block[] = [];
for (let i = 0; blocks.length < BLOCK_LIMITS.blocksPerBody; i++) {
  if (i % 10 === 0) blocks.push({ type: 'heading', level: 2, text: `Part ${i}`, id: `part-${i}` });
  else if (i % 10 === 5) blocks.push({ type: 'list', style: 'bullet', items: [sentence(i), sentence(i + 1), 'Short item'] });
  else blocks.push({ type: 'paragraph', text: Array.from({ length: 6 }, (_, k) => sentence(i * 10 + k)).join(' ') });
}
const time = (name: string, f: () => void) => { f(); const ts: number[] = []; for (let r = 0; r < 11; r++) { const t = performance.now(); f(); ts.push(performance.now() - t); } ts.sort((a,b)=>a-b); console.log(name, ts[5]!.toFixed(1), 'ms'); };
it('times', () => {
  const texts = blocks.flatMap((b) => b.type === 'paragraph' ? [b.text] : b.type === 'list' ? b.items : []);
  time('plainText', () => { for (const t of texts) plainText(t); });
  const plain = texts.map(plainText);
  time('split', () => { for (const t of plain) for (const s of t.split(/[.!?]+(?=\s|$)|\n+/u)) s.split(/\s+/u).filter((x) => /[\p{L}\p{N}]/u.test(x)); });
  const m = new Map<string, number>();
  time('syll', () => { for (const t of plain) for (const w of t.split(/\s+/u)) { let c = m.get(w); if (c === undefined) { c = syllableCount(w); m.set(w, c); } } });
  time('bodyText', () => bodyText(blocks));
}, 120_000);

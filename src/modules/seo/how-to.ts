import { plainText, strongLead, type StoredBlock } from '@quire/blocks';
import { compact, idFor, type Node } from './json-ld.js';

/*
 * A post with `isHowTo` becomes a HowTo too. Its steps come from the body:
 *   - the items of the first ordered list, one step each, when there is one (the usual way to write steps),
 *     named by the item's bold lead (`**Mix** the flour …`) or else by the item itself;
 *   - otherwise each heading of the top heading level, with the paragraphs, list items and deeper headings
 *     under it as its text, and the heading's anchor on the post's URL as its url.
 * A HowTo without a step is invalid for Google, so a body that yields none gives no HowTo node. Step names and
 * texts are plain text.
 */

export function howToSteps(blocks: readonly StoredBlock[], pageUrl: string | null): Node[] {
  const ordered = blocks.find((block) => block.type === 'list' && block.style === 'ordered');
  if (ordered?.type === 'list') {
    return ordered.items.map((item, i) => {
      const text = plainText(item);
      return { '@type': 'HowToStep', position: i + 1, name: strongLead(item) ?? text, text };
    });
  }

  const levels = blocks.flatMap((block) => (block.type === 'heading' ? [block.level] : []));
  if (levels.length === 0) return [];
  const stepLevel = Math.min(...levels);
  const steps: Array<{ name: string; id: string; text: string[] }> = [];
  for (const block of blocks) {
    const current = steps.at(-1);
    if (block.type === 'heading' && block.level === stepLevel)
      steps.push({ name: plainText(block.text), id: block.id, text: [] });
    else if (!current) continue;
    else if (block.type === 'heading' || block.type === 'paragraph') current.text.push(plainText(block.text));
    else if (block.type === 'list') current.text.push(...block.items.map(plainText));
  }
  return steps.map((step, i) =>
    compact({
      '@type': 'HowToStep',
      position: i + 1,
      name: step.name,
      text: step.text.join('\n') || step.name,
      url: idFor(pageUrl, step.id),
    }),
  );
}

export interface HowToSource {
  name: string;
  description: string | undefined;
  imageUrl: string | null;
  blocks: readonly StoredBlock[];
}

export function howToNode(source: HowToSource, pageUrl: string | null): Node | null {
  const step = howToSteps(source.blocks, pageUrl);
  if (step.length === 0) return null;
  return compact({
    '@type': 'HowTo',
    '@id': idFor(pageUrl, 'howto'),
    name: source.name,
    description: source.description,
    image: source.imageUrl,
    step,
  });
}

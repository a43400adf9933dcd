import type { ImportAuthor, ImportCategory, ImportTag } from '../../import-source.js';
import { isPage } from './entry.js';
import { readFields } from './fields.js';
import { readMarkdownFile } from './read-file.js';
import { nameId } from './text.js';
import type { MarkdownFile } from './walk.js';

/*
 * The authors, categories and tags of a folder, read from the front matter of every file before any entry is
 * yielded (the runner writes them first). Each is named by its slug, so one name in many files is one item; the
 * first spelling met is the one kept.
 */

export interface Taxonomy {
  authors: Map<string, ImportAuthor>;
  categories: Map<string, ImportCategory>;
  tags: Map<string, ImportTag>;
}

export async function collectTaxonomy(files: AsyncIterable<MarkdownFile>, jekyll: boolean): Promise<Taxonomy> {
  const taxonomy: Taxonomy = { authors: new Map(), categories: new Map(), tags: new Map() };
  for await (const file of files) {
    const read = await readMarkdownFile(file);
    // A file that cannot be read is reported once, as a failure, when the entries are read.
    if ('error' in read) continue;
    const fields = readFields(read.data);
    for (const author of fields.authors) {
      const id = nameId('author', author.name);
      const known = taxonomy.authors.get(id);
      if (known === undefined)
        taxonomy.authors.set(id, {
          type: 'author',
          sourceId: id,
          slug: id,
          displayName: author.name,
          sameAs: author.sameAs,
        });
      else for (const link of author.sameAs) if (!known.sameAs.includes(link)) known.sameAs.push(link);
    }
    // A page has neither: its categories and tags are reported with it, not made.
    if (isPage(file, fields.page, jekyll)) continue;
    for (const name of fields.categories) {
      const id = nameId('category', name);
      if (!taxonomy.categories.has(id)) taxonomy.categories.set(id, { type: 'category', sourceId: id, slug: id, name });
    }
    for (const name of fields.tags) {
      const id = nameId('tag', name);
      if (!taxonomy.tags.has(id)) taxonomy.tags.set(id, { type: 'tag', sourceId: id, slug: id, name });
    }
  }
  return taxonomy;
}

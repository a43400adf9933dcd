import type { ImportFormat } from './import-types';

export interface FormatGuide {
  format: ImportFormat;
  name: string;
  /** What the file is. */
  what: string;
  /** Where to get it, step by step. */
  how: string[];
  /** The file input's `accept`. */
  accept: string;
}

/** The formats in the order the screen offers them, each with how to get its file. */
export const FORMAT_GUIDES: FormatGuide[] = [
  {
    format: 'ghost',
    name: 'Ghost',
    what: 'The export of a Ghost site: its posts, pages, authors, tags and redirects.',
    how: [
      'In Ghost Admin, open Settings → Labs (Settings → Advanced → Import/Export in Ghost 5 and later) and choose Export: you get a .json file.',
      'To bring the images as well, upload a .zip holding that .json and your site’s content/images folder.',
    ],
    accept: '.json,.zip,application/json,application/zip',
  },
  {
    format: 'wordpress',
    name: 'WordPress',
    what: 'A WordPress export (WXR): posts, pages, authors, categories and tags.',
    how: [
      'In WordPress, open Tools → Export, choose All content and download the .xml file.',
      'Images are downloaded from your site while importing, so the site must still be online.',
    ],
    accept: '.xml,application/xml,text/xml',
  },
  {
    format: 'markdown',
    name: 'Markdown folder',
    what: 'Markdown files with front matter, as Hugo, Jekyll, Eleventy and Astro keep them, with their images.',
    how: [
      'Zip your content folder (with the images it links to) and upload the .zip.',
      'The zip’s name becomes the site’s name in Quire’s import records: import the same folder under the same name to update it.',
    ],
    accept: '.zip,application/zip',
  },
];

export function guideOf(format: ImportFormat): FormatGuide {
  return FORMAT_GUIDES.find((guide) => guide.format === format)!;
}

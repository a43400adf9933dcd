"""Issue 26's side-by-side: a kept Quire benchmark data dir's live posts, as Directus holds them.

    python3 bench/directus/load.py <kept SQLite data dir> <directus dir>/data.db

Copies every column a post's answer carries (no search text, no render stamp) into a table `posts` of a new
SQLite file, with the indexes Directus's queries need (status and published date; created date; slug), so it
is measured with an index for each list it is asked for, as Quire is. No relations: Directus answers the bare
rows, Quire every embed.
"""
import os
import sqlite3
import sys

source, target = sys.argv[1], sys.argv[2]
COLUMNS = ['id', 'slug', 'title', 'excerpt', 'body_json', 'body_text', 'toc_items', 'word_count',
           'reading_time_min', 'featured_media_id', 'author_id', 'category_id', 'status', 'published_at',
           'is_how_to', 'summary_for_ai', 'canonical_url', 'view_count', 'seo', 'schema_type', 'structured_data',
           'structured_blocks', 'seo_score', 'readability_score', 'created_at', 'updated_at']
TYPES = {'word_count': 'integer', 'reading_time_min': 'integer', 'view_count': 'integer', 'is_how_to': 'boolean',
         'seo_score': 'integer', 'readability_score': 'integer', 'published_at': 'datetime',
         'created_at': 'datetime', 'updated_at': 'datetime'}

if os.path.exists(target):
    os.remove(target)
quire = sqlite3.connect(os.path.join(source, 'quire.sqlite'))
directus = sqlite3.connect(target)
directus.execute('create table posts (' + ', '.join(
    f'{c} {"varchar(36) primary key not null" if c == "id" else TYPES.get(c, "text")}' for c in COLUMNS) + ')')
directus.execute('create index posts_status_published on posts (status, published_at)')
directus.execute('create index posts_created on posts (created_at)')
directus.execute('create index posts_slug on posts (slug)')
rows = quire.execute(f'select {", ".join(COLUMNS)} from posts where deleted_at is null').fetchall()
directus.executemany(f'insert into posts values ({", ".join("?" * len(COLUMNS))})', rows)
directus.commit()
print(f'{len(rows)} posts into {target}')

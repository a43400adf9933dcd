/**
 * Content tables are written inside contentWrite alone, where every write records its content events, revisions
 * and webhook deliveries (docs/architecture.md, "the one write path"). A statement that inserts, updates or
 * deletes rows of a content table must run on a ContentTransaction (the type of contentWrite's `scope.trx`):
 * either the executor is a parameter declared as one (a repository's write), or the statement sits in the work
 * function handed to contentWrite (the seed's and the import's bulk inserts). The compiler then makes sure every
 * ContentTransaction was opened by contentWrite, since only contentWrite may cast to the type.
 */

/** The content tables: what the API writes as resources, and their join tables. */
export const CONTENT_TABLES = new Set([
  'posts',
  'pages',
  'media',
  'authors',
  'categories',
  'tags',
  'redirects',
  'post_tags',
  'related_posts',
]);

const WRITE_METHODS = new Set(['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto']);
const TABLE_NAMES = [...CONTENT_TABLES].join('|');
const RAW_WRITE = new RegExp(`\\b(insert\\s+into|update|delete\\s+from)\\s+"?(${TABLE_NAMES})"?(\\s|\\(|$)`, 'i');
/** The types an executor's parameter may be declared as: the transaction, or the scope that carries it. */
const BRANDED = new Set(['ContentTransaction', 'ContentWriteScope']);

/** The table a write names: a string literal, or a literal type a dynamic name is cast to (`name as 'posts'`). */
function tableNamed(node) {
  if (!node) return undefined;
  // `posts as p`: the table is the first word.
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value.trim().split(/\s+/)[0];
  if (node.type === 'TSAsExpression' && node.typeAnnotation.type === 'TSLiteralType')
    return tableNamed(node.typeAnnotation.literal);
  return undefined;
}

/** The identifier a call chain starts from: `db` in `db.updateTable('posts').set(…)`. */
function rootIdentifier(node) {
  let current = node;
  for (;;) {
    if (current.type === 'Identifier') return current;
    if (current.type === 'MemberExpression') current = current.object;
    else if (current.type === 'CallExpression') current = current.callee;
    else if (current.type === 'AwaitExpression' || current.type === 'TSNonNullExpression')
      current = current.argument ?? current.expression;
    else return undefined;
  }
}

function isBranded(typeNode) {
  return (
    typeNode?.type === 'TSTypeReference' &&
    typeNode.typeName.type === 'Identifier' &&
    BRANDED.has(typeNode.typeName.name)
  );
}

/** Whether `identifier` names a parameter declared as a ContentTransaction. */
function isContentTransactionParameter(context, identifier) {
  let scope = context.sourceCode.getScope(identifier);
  while (scope) {
    const variable = scope.set.get(identifier.name);
    if (variable) {
      const definition = variable.defs[0];
      return definition?.type === 'Parameter' && isBranded(definition.name.typeAnnotation?.typeAnnotation);
    }
    scope = scope.upper;
  }
  return false;
}

/** Whether `node` sits inside the work function of a `contentWrite(database, writer, work)` call. */
function insideContentWrite(context, node) {
  for (const ancestor of context.sourceCode.getAncestors(node).reverse()) {
    if (ancestor.type !== 'ArrowFunctionExpression' && ancestor.type !== 'FunctionExpression') continue;
    const call = ancestor.parent;
    if (call?.type === 'CallExpression' && call.callee.type === 'Identifier' && call.callee.name === 'contentWrite')
      return true;
  }
  return false;
}

function allowed(context, node, executor) {
  const root = executor && rootIdentifier(executor);
  return (root !== undefined && isContentTransactionParameter(context, root)) || insideContentWrite(context, node);
}

const MESSAGE =
  'Content tables ({{table}}) are written inside contentWrite only: run this on a ContentTransaction ' +
  '(scope.trx, or a parameter declared as one) so the write records its events, revisions and webhooks.';

const insideContentWriteRule = {
  meta: {
    type: 'problem',
    messages: {
      write: MESSAGE,
      dynamic:
        'A write of a table named at run time may write a content table: run it on a ContentTransaction ' +
        '(scope.trx, or a parameter declared as one).',
    },
    schema: [{ type: 'object', properties: { allowDynamicTables: { type: 'boolean' } }, additionalProperties: false }],
  },
  create(context) {
    const allowDynamic = context.options[0]?.allowDynamicTables === true;
    return {
      CallExpression(node) {
        const callee = node.callee;
        // db.insertInto('posts'), trx.updateTable('tags') …
        if (callee.type === 'MemberExpression' && !callee.computed && WRITE_METHODS.has(callee.property.name)) {
          const argument = node.arguments[0];
          const table = tableNamed(argument);
          if (table && CONTENT_TABLES.has(table) && !allowed(context, node, callee.object))
            context.report({ node, messageId: 'write', data: { table } });
          // A table named at run time may be a content table: it is held to the same rule unless the file is
          // named as one whose dynamic tables are not content (allowDynamicTables).
          const dynamic = argument !== undefined && argument.type !== 'Literal' && table === undefined;
          if (dynamic && !allowDynamic && !allowed(context, node, callee.object))
            context.report({ node, messageId: 'dynamic' });
        }
        // insertRows(db, dialect, 'posts', rows): the seed's multi-row insert.
        if (callee.type === 'Identifier' && callee.name === 'insertRows') {
          const table = tableNamed(node.arguments[2]);
          if (table && CONTENT_TABLES.has(table) && !allowed(context, node, node.arguments[0]))
            context.report({ node, messageId: 'write', data: { table } });
        }
      },
      // sql`update posts set …`.execute(db)
      TaggedTemplateExpression(node) {
        const text = node.quasi.quasis.map((quasi) => quasi.value.raw).join(' ');
        const match = RAW_WRITE.exec(text);
        if (!match) return;
        const execute = node.parent?.type === 'MemberExpression' ? node.parent.parent : undefined;
        const executor = execute?.type === 'CallExpression' ? execute.arguments[0] : undefined;
        if (!allowed(context, node, executor))
          context.report({ node, messageId: 'write', data: { table: match[2].toLowerCase() } });
      },
    };
  },
};

const castRule = {
  meta: {
    type: 'problem',
    messages: { cast: 'Only contentWrite (src/writes/content-write.ts) makes a ContentTransaction; take scope.trx.' },
    schema: [],
  },
  create(context) {
    const check = (node) => {
      const type = node.typeAnnotation;
      if (
        type.type === 'TSTypeReference' &&
        type.typeName.type === 'Identifier' &&
        type.typeName.name === 'ContentTransaction'
      )
        context.report({ node, messageId: 'cast' });
    };
    return { TSAsExpression: check, TSTypeAssertion: check };
  },
};

export default {
  meta: { name: 'quire-content-writes' },
  rules: { 'inside-content-write': insideContentWriteRule, 'no-cast': castRule },
};

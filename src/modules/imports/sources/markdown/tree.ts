import type { Nodes, Root } from 'mdast';

/** Every node of the tree, parents before children, without recursion. */
export function* walk(root: Root): Generator<Nodes> {
  const stack: Nodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    yield node;
    if ('children' in node) for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push(node.children[i]!);
  }
}

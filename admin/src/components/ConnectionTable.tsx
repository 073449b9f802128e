import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Loading } from './Loading';
import { Pager } from './Pager';
import type { usePaging } from './paging';

interface Connection<Node> {
  edges: readonly { node: Node }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor?: string | null; endCursor?: string | null };
  totalCount?: number | null;
}

/**
 * A page of a connection as a table: how many match (announced), a header row, a row a node (`cells`
 * gives its cells), a line when there is none, and Previous/Next by cursor. Loading until the first answer.
 */
export function ConnectionTable<Node extends { id: string }>({
  connection,
  fetching,
  paging,
  total,
  none,
  columns,
  cells,
}: {
  connection: Connection<Node> | null | undefined;
  fetching: boolean;
  paging: ReturnType<typeof usePaging>;
  total: (count: number) => string;
  none: string;
  columns: readonly string[];
  cells: (node: Node) => ReactNode;
}) {
  if (!connection) return fetching ? <Loading /> : null;
  const { pageInfo } = connection;
  return (
    <>
      {connection.totalCount != null && (
        <Text size="sm" c="dimmed" role="status">
          {total(connection.totalCount)}
        </Text>
      )}
      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-busy={fetching}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th scope="col" key={column}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {connection.edges.map(({ node }) => (
              <Table.Tr key={node.id}>{cells(node)}</Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {connection.edges.length === 0 && <Text>{none}</Text>}
      <Pager
        hasPrevious={pageInfo.hasPreviousPage}
        hasNext={pageInfo.hasNextPage}
        onPrevious={() => paging.previous(pageInfo.startCursor)}
        onNext={() => paging.next(pageInfo.endCursor)}
      />
    </>
  );
}

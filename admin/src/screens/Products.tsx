import { Anchor, Badge, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { Pager } from '../components/Pager';
import { usePaging } from '../components/paging';
import { useTitle } from '../components/useTitle';
import { dateTime } from '../format';
import type { ProductOrder, ProductStatus } from '../gql/graphql';
import { ProductsList } from '../graphql/operations';

const STATUSES: readonly ProductStatus[] = ['active', 'draft', 'archived'];
const STATUS_COLOR: Record<ProductStatus, string> = { active: 'green', draft: 'gray', archived: 'dark' };
const SORTS = {
  created_desc: { field: 'created_at', direction: 'DESC' },
  updated_desc: { field: 'updated_at', direction: 'DESC' },
  title_asc: { field: 'title', direction: 'ASC' },
  title_desc: { field: 'title', direction: 'DESC' },
} satisfies Record<string, ProductOrder>;
type Sort = keyof typeof SORTS;

const statusOf = (value: string | null) => STATUSES.find((s) => s === value) ?? null;
const sortOf = (value: string | null): Sort => (value && value in SORTS ? (value as Sort) : 'created_desc');

/** Catalog → Products: the `products` connection, searched, filtered by status, sorted, 50 rows a page. */
export function Products() {
  const { t, i18n } = useTranslation();
  useTitle(t('products.title'));
  const paging = usePaging();
  const q = paging.params.get('q') ?? '';
  const status = statusOf(paging.params.get('status'));
  const sort = sortOf(paging.params.get('sort'));
  const [search, setSearch] = useState(q);
  useEffect(() => setSearch(q), [q]);
  const [{ data, fetching, error }] = useQuery({
    query: ProductsList,
    variables: { ...paging.window, filter: { q: q || null, status }, orderBy: SORTS[sort] },
  });
  const connection = data?.products;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    paging.set({ q: search.trim() || null });
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('products.title')}</Title>
        <Button component={Link} to="/catalog/products/new">
          {t('products.new')}
        </Button>
      </Group>
      <Group align="flex-end" gap="sm" component="form" role="search" onSubmit={submit}>
        <TextInput label={t('products.search')} placeholder={t('products.searchHint')} value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
        <Button type="submit" variant="default">
          {t('products.searchButton')}
        </Button>
        <NativeSelect
          label={t('products.status')}
          value={status ?? ''}
          onChange={(e) => paging.set({ status: e.currentTarget.value || null })}
          data={[{ value: '', label: t('common.all') }, ...STATUSES.map((s) => ({ value: s, label: t(`products.statuses.${s}`) }))]}
        />
        <NativeSelect
          label={t('products.sort')}
          value={sort}
          onChange={(e) => paging.set({ sort: e.currentTarget.value === 'created_desc' ? null : e.currentTarget.value })}
          data={(Object.keys(SORTS) as Sort[]).map((s) => ({ value: s, label: t(`products.sorts.${s}`) }))}
        />
      </Group>
      {error && <ErrorNotice error={error} />}
      {fetching && !connection ? (
        <Loading />
      ) : connection ? (
        <>
          {connection.totalCount !== null && (
            <Text size="sm" c="dimmed" role="status">
              {t('products.total', { count: connection.totalCount })}
            </Text>
          )}
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover aria-busy={fetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('products.columns.title')}</Table.Th>
                  <Table.Th scope="col">{t('products.columns.handle')}</Table.Th>
                  <Table.Th scope="col">{t('products.columns.status')}</Table.Th>
                  <Table.Th scope="col">{t('products.columns.brand')}</Table.Th>
                  <Table.Th scope="col">{t('products.columns.updated')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {connection.edges.map(({ node }) => (
                  <Table.Tr key={node.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/catalog/products/${node.id}`}>
                        {node.title}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Text span ff="monospace" size="sm">
                        {node.handle}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLOR[node.status]} variant="light">
                        {t(`products.statuses.${node.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{node.brand?.name ?? t('common.empty')}</Table.Td>
                    <Table.Td>{dateTime(node.updated_at, i18n.language)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {connection.edges.length === 0 && <Text>{t('products.none')}</Text>}
          <Pager
            hasPrevious={connection.pageInfo.hasPreviousPage}
            hasNext={connection.pageInfo.hasNextPage}
            onPrevious={() => paging.previous(connection.pageInfo.startCursor)}
            onNext={() => paging.next(connection.pageInfo.endCursor)}
          />
        </>
      ) : null}
    </Stack>
  );
}

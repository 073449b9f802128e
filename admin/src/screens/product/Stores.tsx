import { Badge, Button, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { dateTime } from '../../format';
import { PublishProduct, UnpublishProduct } from '../../graphql/operations';
import type { Choices, Product } from './form';

/** Publication to the tenant's stores (catalog.product.publish / unpublish). */
export function Stores({ product, stores, onSaved }: { product: Product; stores: Choices['stores']; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const [published, publish] = useMutation(PublishProduct);
  const [unpublished, unpublish] = useMutation(UnpublishProduct);
  const error = published.error ?? unpublished.error;
  const toggle = async (storeId: string, on: boolean) => {
    const result = on
      ? await publish({ input: { product_id: product.id, store_id: storeId } })
      : await unpublish({ input: { product_id: product.id, store_id: storeId } });
    if (!result.error) onSaved();
  };
  return (
    <>
      {error && <ErrorNotice error={error} />}
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('product.stores.store')}</Table.Th>
            <Table.Th scope="col">{t('product.stores.state')}</Table.Th>
            <Table.Th scope="col">{t('product.stores.action')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {stores.map((store) => {
            const publication = product.stores.find((p) => p.store_id === store.id);
            return (
              <Table.Tr key={store.id}>
                <Table.Th scope="row">{`${store.name} (${store.handle})`}</Table.Th>
                <Table.Td>
                  {publication ? (
                    <Badge color="green" variant="light">
                      {t('product.stores.publishedAt', { date: dateTime(publication.published_at, i18n.language) })}
                    </Badge>
                  ) : (
                    <Badge color="gray" variant="light">
                      {t('product.stores.notPublished')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="default"
                    loading={published.fetching || unpublished.fetching}
                    onClick={() => void toggle(store.id, !publication)}
                    aria-label={t(publication ? 'product.stores.unpublishFrom' : 'product.stores.publishTo', { store: store.name })}
                  >
                    {publication ? t('product.stores.unpublish') : t('product.stores.publish')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </>
  );
}

import { Anchor, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { filled } from '../../components/form';
import { webAddress } from '../../components/links';
import { dateTime } from '../../format';
import type { OrderDocumentKind } from '../../gql/graphql';
import { byField, type Refusal, refusals } from '../../graphql/errors';
import { OrderDocumentAttach } from '../../graphql/operations';
import type { Order } from './types';

const KINDS: readonly OrderDocumentKind[] = ['fiscal_invoice', 'shipping_label', 'packing_slip', 'content_declaration', 'delivery_proof', 'other'];

/**
 * Attaches an issued document (order.document.attach): its kind, exactly one of a file URL or an asset
 * reference (the server refuses both or neither, on the URL's field), a name, and the parcel it is of.
 * Attaching the same one again changes nothing, and says so.
 */
function AttachDocument({ order, done }: { order: Order; done: () => void }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<OrderDocumentKind>('fiscal_invoice');
  const [fileUrl, setFileUrl] = useState('');
  const [assetId, setAssetId] = useState('');
  const [name, setName] = useState('');
  const [shipmentId, setShipmentId] = useState('');
  const [result, attach] = useMutation(OrderDocumentAttach);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [others, setOthers] = useState<Refusal[]>([]);
  const [already, setAlready] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlready(false);
    const { data, error } = await attach({
      input: {
        order_id: order.id,
        kind,
        ...filled('file_url', fileUrl),
        ...filled('asset_id', assetId),
        ...filled('name', name),
        ...filled('shipment_id', shipmentId),
      },
    });
    const found = error ? byField(refusals(error)) : { fields: {}, others: [] };
    setFields(found.fields);
    setOthers(found.others);
    if (error) return;
    if (data?.order_document_attach?.attached === false) setAlready(true);
    else {
      setFileUrl('');
      setAssetId('');
      setName('');
    }
    done();
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate aria-label={t('order.document.attachTitle')}>
      <Stack gap="xs">
        <Title order={3} size="h4">
          {t('order.document.attachTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            label={t('order.kind')}
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as OrderDocumentKind)}
            data={KINDS.map((k) => ({ value: k, label: t(`order.documentKinds.${k}`) }))}
            error={fields.kind}
          />
          <NativeSelect
            label={t('order.document.parcel')}
            value={shipmentId}
            onChange={(e) => setShipmentId(e.currentTarget.value)}
            data={[
              { value: '', label: t('order.document.wholeOrder') },
              ...order.shipments.map((s, i) => ({ value: s.shipment_id, label: t('order.parcels.parcel', { n: i + 1 }) })),
            ]}
            error={fields.shipment_id}
          />
          <TextInput
            label={t('order.document.fileUrl')}
            description={t('order.document.sourceHint')}
            type="url"
            maxLength={2048}
            value={fileUrl}
            onChange={(e) => setFileUrl(e.currentTarget.value)}
            error={fields.file_url}
          />
          <TextInput
            label={t('order.document.assetId')}
            description={t('order.document.sourceHint')}
            maxLength={200}
            value={assetId}
            onChange={(e) => setAssetId(e.currentTarget.value)}
            error={fields.asset_id}
          />
          <TextInput label={t('order.name')} maxLength={200} value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields.name} />
        </SimpleGrid>
        <ErrorNotice list={others} />
        <Group>
          <Button type="submit" loading={result.fetching}>
            {t('order.document.attach')}
          </Button>
          {already && (
            <Text size="sm" role="status">
              {t('order.document.already')}
            </Text>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** The order's documents, oldest first (a file URL as a link that opens apart), and (with order.write) the attach form. */
export function Documents({ order, canWrite, done }: { order: Order; canWrite: boolean; done: () => void }) {
  const { t, i18n } = useTranslation();
  const parcelOf = (id: string | null | undefined) => {
    const index = order.shipments.findIndex((s) => s.shipment_id === id);
    return index < 0 ? t('order.document.wholeOrder') : t('order.parcels.parcel', { n: index + 1 });
  };
  return (
    <Stack gap="sm">
      {order.documents.length === 0 ? (
        <Text c="dimmed">{t('order.noneYet')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('order.documents')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('order.kind')}</Table.Th>
                <Table.Th scope="col">{t('order.name')}</Table.Th>
                <Table.Th scope="col">{t('order.document.file')}</Table.Th>
                <Table.Th scope="col">{t('order.document.parcel')}</Table.Th>
                <Table.Th scope="col">{t('order.date')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {order.documents.map((document) => {
                const href = webAddress(document.file_url);
                const label = document.name ?? t(`order.documentKinds.${document.kind}`);
                return (
                  <Table.Tr key={document.document_id}>
                    <Table.Td>{t(`order.documentKinds.${document.kind}`)}</Table.Td>
                    <Table.Td>{document.name ?? t('common.empty')}</Table.Td>
                    <Table.Td>
                      {href ? (
                        <>
                          <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm">
                            {t('order.document.open', { name: label })}
                          </Anchor>{' '}
                          <Text component="span" size="xs" c="dimmed">
                            {new URL(href).host}
                          </Text>
                        </>
                      ) : (
                        <Text component="span" ff="monospace" size="sm">
                          {document.asset_id ?? document.file_url ?? t('common.empty')}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{parcelOf(document.shipment_id)}</Table.Td>
                    <Table.Td>{dateTime(document.created_at, i18n.language)}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {canWrite && <AttachDocument order={order} done={done} />}
    </Stack>
  );
}

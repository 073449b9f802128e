import { Button, Group, Table, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { refusals } from '../../graphql/errors';
import { AdjustStock } from '../../graphql/operations';
import { type Choices, integer, type Sku, text } from './form';

/** A SKU's stock in one warehouse, with the Adjust action (inventory.adjust: set on hand). A refusal shows on the field. */
function StockRow({
  sku,
  warehouse,
  level,
  onSaved,
}: {
  sku: Sku;
  warehouse: { id: string; code: string; name: string };
  level?: Sku['stock_levels'][number];
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [onHand, setOnHand] = useState(text(level?.on_hand ?? 0));
  const [state, adjust] = useMutation(AdjustStock);
  useEffect(() => setOnHand(text(level?.on_hand ?? 0)), [level?.on_hand]);
  // The form has one input: every refusal of it is about that input (below reserved names no field).
  const refused = state.error
    ? refusals(state.error)
        .map((r) => r.message)
        .join(' ')
    : undefined;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await adjust({ input: { sku_id: sku.id, warehouse_id: warehouse.id, on_hand: integer(onHand) } });
    if (result.data?.inventory_adjust) onSaved();
  };
  return (
    <Table.Tr>
      <Table.Th scope="row">{`${warehouse.name} (${warehouse.code})`}</Table.Th>
      <Table.Td ta="right">{level?.on_hand ?? 0}</Table.Td>
      <Table.Td ta="right">{level?.reserved ?? 0}</Table.Td>
      <Table.Td ta="right">{level?.available ?? 0}</Table.Td>
      <Table.Td>
        <Group component="form" gap="xs" align="flex-start" onSubmit={submit} wrap="nowrap">
          <TextInput
            size="xs"
            w={120}
            aria-label={t('product.stock.onHandAt', { code: sku.code, warehouse: warehouse.code })}
            inputMode="numeric"
            value={onHand}
            onChange={(e) => setOnHand(e.currentTarget.value)}
            error={refused}
          />
          <Button
            type="submit"
            size="xs"
            variant="default"
            loading={state.fetching}
            aria-label={t('product.stock.adjustAt', { code: sku.code, warehouse: warehouse.code })}
          >
            {t('product.stock.adjust')}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export function Stock({ sku, warehouses, onSaved }: { sku: Sku; warehouses: Choices['warehouses']; onSaved: () => void }) {
  const { t } = useTranslation();
  // Every warehouse of the tenant, with its level when it holds one; a warehouse the list did not answer still shows its level.
  const known = new Map(warehouses.map((w) => [w.id, w]));
  for (const level of sku.stock_levels) {
    if (!known.has(level.warehouse_id))
      known.set(level.warehouse_id, {
        id: level.warehouse_id,
        code: level.warehouse?.code ?? level.warehouse_id,
        name: level.warehouse?.name ?? level.warehouse_id,
      });
  }
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label={t('product.stock.of', { code: sku.code })}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('product.stock.warehouse')}</Table.Th>
            <Table.Th scope="col" ta="right">
              {t('product.stock.onHand')}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {t('product.stock.reserved')}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {t('product.stock.available')}
            </Table.Th>
            <Table.Th scope="col">{t('product.stock.setOnHand')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {[...known.values()].map((warehouse) => (
            <StockRow
              key={warehouse.id}
              sku={sku}
              warehouse={warehouse}
              level={sku.stock_levels.find((l) => l.warehouse_id === warehouse.id)}
              onSaved={onSaved}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

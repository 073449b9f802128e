import { Anchor, Badge, Button, Group, Modal, NumberInput, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { CombinedError } from '@urql/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../components/ErrorNotice';
import { filled } from '../components/form';
import { webAddress } from '../components/links';
import { byField, type Refusal, refusals } from '../graphql/errors';
import { OrderCancel, OrderMarkPaid, ShipmentDeliver, ShipmentDispatch, ShipmentSetTracking, ShipmentSplit } from '../graphql/operations';
import type { Order, Shipment } from './order/types';

/** The scope every order action needs (the server checks it anyway). */
export const ORDER_WRITE = 'order.write';

/** A mutation's outcome: its refusals (none: done). */
function failed(error: CombinedError | undefined): Refusal[] {
  return error ? refusals(error) : [];
}

/**
 * What can be done to an unpaid order: mark it paid, or cancel it (asked first: it releases the stock
 * and cannot be undone). Nothing for a paid or cancelled one. `done` asks the page again.
 */
export function OrderActions({ order, done }: { order: Order; done: () => void }) {
  const { t } = useTranslation();
  const [paid, markPaid] = useMutation(OrderMarkPaid);
  const [cancelled, cancel] = useMutation(OrderCancel);
  const [asking, setAsking] = useState(false);
  const [errors, setErrors] = useState<Refusal[]>([]);
  if (order.status !== 'pending_payment') return null;

  const run = async (action: () => Promise<{ error?: CombinedError }>) => {
    setErrors([]);
    const result = await action();
    setErrors(failed(result.error));
    if (!result.error) done();
  };

  return (
    <Stack gap="xs">
      <Group>
        <Button onClick={() => run(() => markPaid({ id: order.id }))} loading={paid.fetching}>
          {t('order.actions.markPaid')}
        </Button>
        <Button color="red" variant="outline" onClick={() => setAsking(true)}>
          {t('order.actions.cancel')}
        </Button>
      </Group>
      <ErrorNotice list={errors} />
      <Modal
        opened={asking}
        onClose={() => setAsking(false)}
        title={t('order.actions.cancelTitle')}
        closeButtonProps={{ 'aria-label': t('order.parcels.close') }}
        centered
      >
        <Stack>
          <Text>{t('order.actions.cancelQuestion', { id: order.id })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)}>
              {t('order.actions.keep')}
            </Button>
            <Button
              color="red"
              loading={cancelled.fetching}
              onClick={async () => {
                setAsking(false);
                await run(() => cancel({ id: order.id }));
              }}
            >
              {t('order.actions.confirmCancel')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** Splits a pending parcel: how many of each of its items move to a new parcel; a refusal about a quantity shows on its field. */
function SplitForm({ order, shipment, done, close }: { order: Order; shipment: Shipment; done: () => void; close: () => void }) {
  const { t } = useTranslation();
  const [result, split] = useMutation(ShipmentSplit);
  const [qty, setQty] = useState<Record<string, number | string>>({});
  const [fields, setFields] = useState<Record<string, string>>({});
  const [others, setOthers] = useState<Refusal[]>([]);
  const titleOf = (id: string) => order.items.find((item) => item.order_item_id === id)?.title ?? id;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const items = shipment.items
      .map((item) => ({ order_item_id: item.order_item_id, qty: Number(qty[item.order_item_id] ?? 0) }))
      .filter((item) => item.qty > 0);
    setFields({});
    if (items.length === 0) {
      setOthers([{ message: t('order.parcels.nothingToMove') }]);
      return;
    }
    setOthers([]);
    const { error } = await split({ input: { order_id: order.id, from_shipment_id: shipment.shipment_id, items } });
    if (!error) {
      close();
      done();
      return;
    }
    // `items[i].qty` is the i-th line sent: shown on that item's field.
    const found = byField(refusals(error));
    const onFields: Record<string, string> = {};
    const rest = [...found.others];
    for (const [path, message] of Object.entries(found.fields)) {
      const line = /^items\[(\d+)\]/.exec(path);
      const item = line ? items[Number(line[1])] : undefined;
      if (item) onFields[item.order_item_id] = message;
      else rest.push({ message, field: path });
    }
    setFields(onFields);
    setOthers(rest);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Text size="sm">{t('order.parcels.splitIntro')}</Text>
        {shipment.items.map((item) => (
          <NumberInput
            key={item.order_item_id}
            label={t('order.parcels.moveQty', { title: titleOf(item.order_item_id) })}
            description={t('order.parcels.inParcel', { count: item.qty })}
            min={0}
            allowDecimal={false}
            allowNegative={false}
            value={qty[item.order_item_id] ?? 0}
            onChange={(value) => setQty((q) => ({ ...q, [item.order_item_id]: value }))}
            error={fields[item.order_item_id]}
          />
        ))}
        <ErrorNotice list={others} />
        <Group>
          <Button type="submit" loading={result.fetching}>
            {t('order.parcels.split')}
          </Button>
          <Button variant="default" onClick={close}>
            {t('order.parcels.close')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Sets a parcel's carrier, tracking code and the carrier's tracking page (before or after dispatch). */
function TrackingForm({ order, shipment, done }: { order: Order; shipment: Shipment; done: () => void }) {
  const { t } = useTranslation();
  const [result, save] = useMutation(ShipmentSetTracking);
  const [carrier, setCarrier] = useState(shipment.carrier ?? '');
  const [code, setCode] = useState(shipment.tracking_code ?? '');
  const [url, setUrl] = useState(shipment.tracking_url ?? '');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [others, setOthers] = useState<Refusal[]>([]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFields({});
    setOthers([]);
    // Omitted fields keep their value (the command has no way to clear one): an empty input sends nothing.
    const { error } = await save({
      input: {
        order_id: order.id,
        shipment_id: shipment.shipment_id,
        ...filled('carrier', carrier),
        ...filled('tracking_code', code),
        ...filled('tracking_url', url),
      },
    });
    if (!error) return done();
    const found = byField(refusals(error));
    setFields(found.fields);
    setOthers(found.others);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-start">
        <TextInput label={t('order.parcels.carrier')} value={carrier} onChange={(e) => setCarrier(e.currentTarget.value)} error={fields.carrier} />
        <TextInput label={t('order.tracking')} value={code} onChange={(e) => setCode(e.currentTarget.value)} error={fields.tracking_code} />
        <TextInput
          label={t('order.parcels.trackingUrl')}
          type="url"
          maxLength={2048}
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={fields.tracking_url}
        />
        <Button type="submit" mt={25} variant="light" loading={result.fetching}>
          {t('order.parcels.saveTracking')}
        </Button>
      </Group>
      <ErrorNotice list={others} />
    </form>
  );
}

/**
 * A parcel with what can be done to it: split (pending, order not cancelled), tracking (order not
 * cancelled), dispatch (pending, order paid), delivered (dispatched). Its refusals show on it.
 */
export function ShipmentCard({
  order,
  shipment,
  index,
  canWrite,
  done,
}: {
  order: Order;
  shipment: Shipment;
  index: number;
  canWrite: boolean;
  done: () => void;
}) {
  const { t } = useTranslation();
  const [splitting, setSplitting] = useState(false);
  const [dispatched, dispatch] = useMutation(ShipmentDispatch);
  const [delivered, deliver] = useMutation(ShipmentDeliver);
  const [errors, setErrors] = useState<Refusal[]>([]);
  const open = order.status !== 'cancelled';
  const titleOf = (id: string) => order.items.find((item) => item.order_item_id === id)?.title ?? id;
  const heading = t('order.parcels.parcel', { n: index + 1 });
  const trackingPage = webAddress(shipment.tracking_url);

  const move = async (action: (variables: { order: string; shipment: string }) => Promise<{ error?: CombinedError }>) => {
    setErrors([]);
    const { error } = await action({ order: order.id, shipment: shipment.shipment_id });
    setErrors(failed(error));
    if (!error) done();
  };

  return (
    <Paper withBorder p="md" component="article" aria-label={heading}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">
            {heading}
          </Title>
          <Badge variant="light" color={shipment.status === 'delivered' ? 'green' : shipment.status === 'dispatched' ? 'blue' : 'gray'}>
            {t(`order.shipmentStatuses.${shipment.status}`)}
          </Badge>
        </Group>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('order.product')}</Table.Th>
              <Table.Th scope="col" ta="right">
                {t('order.units')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shipment.items.map((item) => (
              <Table.Tr key={item.order_item_id}>
                <Table.Td>{titleOf(item.order_item_id)}</Table.Td>
                <Table.Td ta="right">{item.qty}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm">
          {t('order.tracking')}:{' '}
          <Text component="span" ff="monospace" size="sm">
            {shipment.tracking_code ?? t('common.empty')}
          </Text>
          {shipment.carrier ? ` (${shipment.carrier})` : ''}
        </Text>
        {trackingPage && (
          <Anchor href={trackingPage} target="_blank" rel="noopener noreferrer" size="sm">
            {t('order.parcels.trackParcel', { n: index + 1 })}
          </Anchor>
        )}
        {canWrite && open && (
          <>
            <TrackingForm order={order} shipment={shipment} done={done} />
            {shipment.status === 'pending' &&
              (splitting ? (
                <SplitForm order={order} shipment={shipment} done={done} close={() => setSplitting(false)} />
              ) : (
                <Group>
                  <Button variant="default" onClick={() => setSplitting(true)}>
                    {t('order.parcels.splitOpen')}
                  </Button>
                  {order.status === 'paid' && (
                    <Button onClick={() => move(dispatch)} loading={dispatched.fetching}>
                      {t('order.parcels.dispatch')}
                    </Button>
                  )}
                </Group>
              ))}
            {shipment.status === 'dispatched' && (
              <Group>
                <Button onClick={() => move(deliver)} loading={delivered.fetching}>
                  {t('order.parcels.deliver')}
                </Button>
              </Group>
            )}
            <ErrorNotice list={errors} />
          </>
        )}
      </Stack>
    </Paper>
  );
}

import { Badge, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { dateTime } from '../../format';
import { byField, type Refusal, refusals } from '../../graphql/errors';
import { OrderPaymentConfirm } from '../../graphql/operations';
import type { Order } from './types';

/**
 * Confirms the order's latest payment attempt as its payment app would (order.payment.confirm): the
 * app verifies it, then the order is paid. The provider's reference is optional; a refusal (no attempt,
 * declined by the app) shows here, on the field when it names one.
 */
function ConfirmPayment({ order, done }: { order: Order; done: () => void }) {
  const { t } = useTranslation();
  const [reference, setReference] = useState('');
  const [result, confirm] = useMutation(OrderPaymentConfirm);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [others, setOthers] = useState<Refusal[]>([]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const given = reference.trim();
    const { error } = await confirm({ input: { order_id: order.id, ...(given ? { provider_reference: given } : {}) } });
    const found = error ? byField(refusals(error)) : { fields: {}, others: [] };
    setFields(found.fields);
    setOthers(found.others);
    if (!error) done();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('order.payment.confirmTitle')}>
      <Stack gap="xs">
        <Text size="sm">{t('order.payment.confirmIntro')}</Text>
        <Group align="flex-start">
          <TextInput
            label={t('order.payment.reference')}
            description={t('order.payment.referenceHint')}
            maxLength={200}
            value={reference}
            onChange={(e) => setReference(e.currentTarget.value)}
            error={fields.provider_reference}
          />
          <Button type="submit" mt={46} loading={result.fetching}>
            {t('order.payment.confirm')}
          </Button>
        </Group>
        <ErrorNotice list={others} />
      </Stack>
    </form>
  );
}

/** The order's payment attempts, newest first, and (awaiting payment, with order.write) the confirmation of the latest. */
export function Payments({ order, canWrite, done }: { order: Order; canWrite: boolean; done: () => void }) {
  const { t, i18n } = useTranslation();
  const attempts = order.payment_attempts;
  return (
    <Stack gap="sm">
      {attempts.length === 0 ? (
        <Text c="dimmed">{t('order.noneYet')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('order.payments')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('order.method')}</Table.Th>
                <Table.Th scope="col">{t('order.payment.app')}</Table.Th>
                <Table.Th scope="col">{t('order.status')}</Table.Th>
                <Table.Th scope="col">{t('order.payment.reference')}</Table.Th>
                <Table.Th scope="col">{t('order.date')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {attempts.map((attempt) => (
                <Table.Tr key={attempt.payment_attempt_id}>
                  <Table.Td>{attempt.method}</Table.Td>
                  <Table.Td>{attempt.payment_app?.name ?? t('common.empty')}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {t(`order.paymentStatuses.${attempt.status}`)}
                      {attempt.failure_reason && <Text size="sm">({attempt.failure_reason})</Text>}
                      {attempt.orphaned && (
                        <Badge color="orange" variant="light">
                          {t('order.payment.orphaned')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td ff="monospace">{attempt.provider_reference ?? t('common.empty')}</Table.Td>
                  <Table.Td>{dateTime(attempt.created_at, i18n.language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {canWrite && order.status === 'pending_payment' && attempts.length > 0 && <ConfirmPayment order={order} done={done} />}
    </Stack>
  );
}

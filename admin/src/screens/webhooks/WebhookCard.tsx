import { Badge, Button, Group, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { dateTime } from '../../format';
import type { WebhookDeliveryStatus, WebhookSubscriptionsQuery } from '../../gql/graphql';
import { type Refusal, refusals } from '../../graphql/errors';
import { WebhookDeliveryRetry, WebhookUpdate } from '../../graphql/operations';

export type Subscription = NonNullable<WebhookSubscriptionsQuery['webhook_subscriptions']>['edges'][number]['node'];

const DELIVERY_COLOR: Record<WebhookDeliveryStatus, string> = { pending: 'yellow', delivered: 'green', failed: 'red' };

/**
 * One subscription: its url and event types, on/off (webhook.subscription.update), its secret rotated
 * or the whole subscription deleted (both asked by the page), and its delivery log (the 10 newest)
 * with retry. Refusals are said in the card they happened in.
 */
export function WebhookCard({
  subscription: s,
  changed,
  rotate,
  remove,
}: {
  subscription: Subscription;
  changed: () => void;
  rotate: () => void;
  remove: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [updating, update] = useMutation(WebhookUpdate);
  const [retrying, retry] = useMutation(WebhookDeliveryRetry);
  const [errors, setErrors] = useState<Refusal[]>([]);
  const headingId = `webhook-${s.id}`;

  const run = async (request: Promise<{ error?: Parameters<typeof refusals>[0] }>) => {
    setErrors([]);
    const result = await request;
    if (result.error) setErrors(refusals(result.error));
    changed();
  };

  return (
    <Paper withBorder p="md" component="article" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Title order={2} size="h4" id={headingId} ff="monospace" style={{ wordBreak: 'break-all' }}>
              {s.url}
            </Title>
            {s.description && <Text size="sm">{s.description}</Text>}
            <Text size="sm">
              {t('webhooks.eventTypes')}{' '}
              <Text span ff="monospace" size="sm">
                {s.event_types.join(', ')}
              </Text>
            </Text>
            {s.disabled_reason && (
              <Text size="sm" c="red.9">
                {t('webhooks.disabledBecause', { reason: s.disabled_reason })}
              </Text>
            )}
            {s.failing_since && (
              <Text size="sm" c="red.9">
                {t('webhooks.failingSince', { date: dateTime(s.failing_since, i18n.language) })}
              </Text>
            )}
            {s.previous_secret_expires_at && (
              <Text size="sm" c="dimmed">
                {t('webhooks.previousSecret', { date: dateTime(s.previous_secret_expires_at, i18n.language) })}
              </Text>
            )}
          </Stack>
          <Switch
            checked={s.enabled}
            disabled={updating.fetching}
            label={s.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
            aria-label={t('webhooks.enableNamed', { url: s.url })}
            onChange={(e) => run(update({ input: { subscription_id: s.id, enabled: e.currentTarget.checked } }))}
          />
        </Group>
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={rotate} aria-label={t('webhooks.rotateNamed', { url: s.url })}>
            {t('webhooks.rotate')}
          </Button>
          <Button size="xs" variant="light" color="red" onClick={remove} aria-label={t('webhooks.deleteNamed', { url: s.url })}>
            {t('webhooks.delete')}
          </Button>
        </Group>
        <ErrorNotice list={errors} />
        <Title order={3} size="h5">
          {t('webhooks.deliveries.title')}
        </Title>
        {s.deliveries.length === 0 ? (
          <Text size="sm">{t('webhooks.deliveries.none')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped aria-label={t('webhooks.deliveries.of', { url: s.url })}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('webhooks.deliveries.event')}</Table.Th>
                  <Table.Th scope="col">{t('webhooks.deliveries.status')}</Table.Th>
                  <Table.Th scope="col">{t('webhooks.deliveries.attempts')}</Table.Th>
                  <Table.Th scope="col">{t('webhooks.deliveries.response')}</Table.Th>
                  <Table.Th scope="col">{t('webhooks.deliveries.created')}</Table.Th>
                  <Table.Th scope="col">{t('webhooks.deliveries.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {s.deliveries.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {d.event_type}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={DELIVERY_COLOR[d.status]}>
                        {t(`webhooks.deliveries.statuses.${d.status}`)}
                      </Badge>
                      {d.last_error && (
                        <Text size="xs" c="red.9">
                          {d.last_error}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{d.attempts}</Table.Td>
                    <Table.Td>{d.last_response_status ?? t('common.empty')}</Table.Td>
                    <Table.Td>{dateTime(d.created_at, i18n.language)}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="light"
                        loading={retrying.fetching}
                        aria-label={t('webhooks.deliveries.retryNamed', { event: d.event_type, id: d.event_id })}
                        onClick={() => run(retry({ id: d.id }))}
                      >
                        {t('webhooks.deliveries.retry')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

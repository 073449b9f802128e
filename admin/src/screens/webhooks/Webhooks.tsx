import { Anchor, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClient, useQuery } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { Pager } from '../../components/Pager';
import { usePaging } from '../../components/paging';
import { SecretDialog } from '../../components/SecretDialog';
import { useTitle } from '../../components/useTitle';
import { type Refusal, refusals } from '../../graphql/errors';
import { WebhookDelete, WebhookRotateSecret, WebhookSubscriptions } from '../../graphql/operations';
import { WebhookCard } from './WebhookCard';
import { WebhookCreateForm } from './WebhookCreateForm';

type Asked = { kind: 'rotate' | 'delete'; id: string; url: string };

/**
 * Developers → Webhooks: the `webhook_subscriptions` connection (oldest first, 50 a page; a tenant has
 * at most 20), each with its delivery log; a new subscription or a rotated secret shown once; rotate
 * and delete asked first.
 */
export function Webhooks() {
  const { t } = useTranslation();
  useTitle(t('webhooks.title'));
  const client = useClient();
  const paging = usePaging();
  const [{ data, fetching, error }, reexecute] = useQuery({ query: WebhookSubscriptions, variables: paging.window });
  const connection = data?.webhook_subscriptions;
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [asked, setAsked] = useState<Asked | null>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Refusal[]>([]);
  const refresh = () => reexecute({ requestPolicy: 'network-only' });

  const confirm = async () => {
    if (!asked) return;
    setBusy(true);
    setErrors([]);
    // Through the client directly: a rotated secret must stay out of urql's kept results.
    const result =
      asked.kind === 'rotate'
        ? await client.mutation(WebhookRotateSecret, { id: asked.id }).toPromise()
        : await client.mutation(WebhookDelete, { id: asked.id }).toPromise();
    setBusy(false);
    setAsked(null);
    if (result.error) setErrors(refusals(result.error));
    else if (result.data && 'webhook_subscription_rotate_secret' in result.data) setSecret(result.data.webhook_subscription_rotate_secret?.secret ?? null);
    refresh();
  };

  return (
    <Stack>
      <Anchor component={Link} to="/settings" size="sm">
        {t('apiKeys.back')}
      </Anchor>
      <Title order={1}>{t('webhooks.title')}</Title>
      <Text>{t('webhooks.intro')}</Text>
      {creating ? (
        <WebhookCreateForm
          cancel={() => setCreating(false)}
          created={(value) => {
            setCreating(false);
            setSecret(value);
            refresh();
          }}
        />
      ) : (
        <Group>
          <Button onClick={() => setCreating(true)}>{t('webhooks.new')}</Button>
        </Group>
      )}
      <SecretDialog
        secret={secret}
        close={() => setSecret(null)}
        title={t('webhooks.secret.title')}
        once={t('webhooks.secret.once')}
        label={t('webhooks.secret.label')}
        copy={t('webhooks.secret.copy')}
      />
      <ErrorNotice list={errors} />
      {error && <ErrorNotice error={error} />}
      {fetching && !connection ? (
        <Loading />
      ) : connection ? (
        <>
          {connection.totalCount !== null && (
            <Text size="sm" c="dimmed" role="status">
              {t('webhooks.total', { count: connection.totalCount })}
            </Text>
          )}
          {connection.edges.map(({ node }) => (
            <WebhookCard
              key={node.id}
              subscription={node}
              changed={refresh}
              rotate={() => setAsked({ kind: 'rotate', id: node.id, url: node.url })}
              remove={() => setAsked({ kind: 'delete', id: node.id, url: node.url })}
            />
          ))}
          {connection.edges.length === 0 && <Text>{t('webhooks.none')}</Text>}
          <Pager
            hasPrevious={connection.pageInfo.hasPreviousPage}
            hasNext={connection.pageInfo.hasNextPage}
            onPrevious={() => paging.previous(connection.pageInfo.startCursor)}
            onNext={() => paging.next(connection.pageInfo.endCursor)}
          />
        </>
      ) : null}
      <Modal
        opened={asked !== null}
        onClose={() => setAsked(null)}
        title={asked?.kind === 'delete' ? t('webhooks.deleteTitle') : t('webhooks.rotateTitle')}
        closeButtonProps={{ 'aria-label': t('apiKeys.token.close') }}
        centered
      >
        <Stack>
          <Text>{asked?.kind === 'delete' ? t('webhooks.deleteQuestion', { url: asked.url }) : t('webhooks.rotateQuestion', { url: asked?.url ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsked(null)}>
              {t('webhooks.keep')}
            </Button>
            <Button color={asked?.kind === 'delete' ? 'red' : undefined} loading={busy} onClick={confirm}>
              {asked?.kind === 'delete' ? t('webhooks.confirmDelete') : t('webhooks.confirmRotate')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

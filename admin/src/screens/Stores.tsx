import { Anchor, Button, Group, Modal, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClient, useQuery } from 'urql';
import { ErrorNotice } from '../components/ErrorNotice';
import { ConnectionTable } from '../components/ConnectionTable';
import { usePaging } from '../components/paging';
import { useDialog } from '../components/useDialog';
import { useRefusals } from '../components/useRefusals';
import { useScopes } from '../components/useScopes';
import { useTitle } from '../components/useTitle';
import { SettingsStores, StoreCreate, StoreUpdate } from '../graphql/operations';
import type { SettingsStoresQuery } from '../gql/graphql';

/** The scope creating and changing stores needs (the server checks it anyway; the list is any operator's). */
export const STORES_WRITE = 'tenant.store.write';

type Store = NonNullable<SettingsStoresQuery['stores']>['edges'][number]['node'];

/** The New store form: name and handle (a store gets its host from the editor afterwards); refusals on their fields. */
function CreateForm({ created, cancel }: { created: () => void; cancel: () => void }) {
  const { t } = useTranslation();
  const client = useClient();
  const [name, setName] = useState('');
  const [handle, setHandle] = useState('');
  const [busy, setBusy] = useState(false);
  const refused = useRefusals();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    refused.clear();
    setBusy(true);
    const result = await client.mutation(StoreCreate, { input: { name: name.trim(), handle: handle.trim() } }).toPromise();
    setBusy(false);
    if (result.error) refused.show(result.error);
    else created();
  };

  return (
    <Paper withBorder p="md" component="section" aria-label={t('stores.new')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h3">
            {t('stores.new')}
          </Title>
          <TextInput
            label={t('stores.fields.name')}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={refused.fields.name}
            maxLength={120}
          />
          <TextInput
            label={t('stores.fields.handle')}
            description={t('stores.fields.handleHint')}
            required
            value={handle}
            onChange={(e) => setHandle(e.currentTarget.value)}
            error={refused.fields.handle}
            maxLength={63}
          />
          <ErrorNotice list={refused.others} />
          <Group>
            <Button type="submit" loading={busy}>
              {t('stores.create')}
            </Button>
            <Button variant="default" onClick={cancel}>
              {t('stores.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** A store's editor: name, host, sender name and reply-to; only what changed is sent ('' clears host, sender and reply-to). */
function EditDialog({ store, opened, close, saved }: { store: Store | null; opened: boolean; close: () => void; saved: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('stores.editTitle', { name: store?.name ?? '' })}
      closeButtonProps={{ 'aria-label': t('stores.close') }}
      centered
      size="lg"
    >
      {store && <EditForm key={store.id} store={store} close={close} saved={saved} />}
    </Modal>
  );
}

function EditForm({ store, close, saved }: { store: Store; close: () => void; saved: () => void }) {
  const { t } = useTranslation();
  const client = useClient();
  const initial = {
    name: store.name,
    host: store.host ?? '',
    notification_sender_name: store.notification_sender_name ?? '',
    notification_reply_to: store.notification_reply_to ?? '',
  };
  const [values, setValues] = useState(initial);
  const [busy, setBusy] = useState(false);
  const refused = useRefusals();
  const field = (key: keyof typeof initial) => ({
    value: values[key],
    onChange: (e: { currentTarget: { value: string } }) => setValues({ ...values, [key]: e.currentTarget.value }),
    error: refused.fields[key],
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    refused.clear();
    // Only the fields changed: a reply-to shown masked (without pii.read) is never sent back as it is shown.
    const changes = Object.fromEntries(
      (Object.keys(initial) as (keyof typeof initial)[]).filter((key) => values[key].trim() !== initial[key]).map((key) => [key, values[key].trim()]),
    );
    if (Object.keys(changes).length === 0) return close();
    setBusy(true);
    const result = await client.mutation(StoreUpdate, { input: { id: store.id, ...changes } }).toPromise();
    setBusy(false);
    if (result.error) refused.show(result.error);
    else saved();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput label={t('stores.fields.name')} required maxLength={120} {...field('name')} />
        <TextInput label={t('stores.fields.host')} description={t('stores.fields.hostHint')} maxLength={260} {...field('host')} />
        <TextInput
          label={t('stores.fields.senderName')}
          description={t('stores.fields.senderNameHint')}
          maxLength={120}
          {...field('notification_sender_name')}
        />
        <TextInput
          label={t('stores.fields.replyTo')}
          description={t('stores.fields.replyToHint')}
          type="email"
          maxLength={320}
          {...field('notification_reply_to')}
        />
        <ErrorNotice list={refused.others} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('stores.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('stores.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Settings → Stores: the `stores` connection (oldest first, 50 a page), a new store, each store's editor. */
export function Stores() {
  const { t } = useTranslation();
  useTitle(t('stores.title'));
  const can = useScopes();
  const paging = usePaging();
  const [{ data, fetching, error }, reexecute] = useQuery({ query: SettingsStores, variables: paging.window });
  const connection = data?.stores;
  const [creating, setCreating] = useState(false);
  const editing = useDialog<Store>();
  const canWrite = can(STORES_WRITE);
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  const empty = t('common.empty');

  return (
    <Stack>
      <Anchor component={Link} to="/settings" size="sm">
        {t('stores.back')}
      </Anchor>
      <Title order={1}>{t('stores.title')}</Title>
      <Text>{t('stores.intro')}</Text>
      {canWrite &&
        (creating ? (
          <CreateForm
            cancel={() => setCreating(false)}
            created={() => {
              setCreating(false);
              refresh();
            }}
          />
        ) : (
          <Group>
            <Button onClick={() => setCreating(true)}>{t('stores.new')}</Button>
          </Group>
        ))}
      {error && <ErrorNotice error={error} />}
      <ConnectionTable
        connection={connection}
        fetching={fetching}
        paging={paging}
        total={(count) => t('stores.total', { count })}
        none={t('stores.none')}
        columns={[
          t('stores.columns.name'),
          t('stores.columns.handle'),
          t('stores.columns.host'),
          t('stores.columns.senderName'),
          t('stores.columns.replyTo'),
          ...(canWrite ? [t('stores.columns.actions')] : []),
        ]}
        cells={(node) => (
          <>
            <Table.Td>{node.name}</Table.Td>
            <Table.Td ff="monospace">{node.handle}</Table.Td>
            <Table.Td>{node.host ?? t('stores.offRouting')}</Table.Td>
            <Table.Td>{node.notification_sender_name ?? empty}</Table.Td>
            <Table.Td>{node.notification_reply_to ?? empty}</Table.Td>
            {canWrite && (
              <Table.Td>
                <Button size="xs" variant="light" aria-label={t('stores.editNamed', { name: node.name })} onClick={() => editing.open(node)}>
                  {t('stores.edit')}
                </Button>
              </Table.Td>
            )}
          </>
        )}
      />
      <EditDialog
        store={editing.item}
        opened={editing.opened}
        close={editing.close}
        saved={() => {
          editing.close();
          refresh();
        }}
      />
    </Stack>
  );
}

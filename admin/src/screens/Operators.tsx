import { Anchor, Badge, Button, Group, Modal, NativeSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
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
import { type Refusal, refusals } from '../graphql/errors';
import { OperatorDeactivate, OperatorInvite, OperatorUpdate, SettingsOperators, Whoami } from '../graphql/operations';
import type { AdminUserRole, SettingsOperatorsQuery } from '../gql/graphql';
import { LOCALE_NAMES, LOCALES, supported } from '../i18n';

/** The scope inviting, changing and deactivating operators needs (the server checks it anyway; the list needs admin.users.read). */
export const OPERATORS_WRITE = 'admin.users.write';

const ROLES: readonly AdminUserRole[] = ['owner', 'admin', 'staff'];
type Operator = NonNullable<SettingsOperatorsQuery['operators']>['edges'][number]['node'];

function useRoleChoices() {
  const { t } = useTranslation();
  return ROLES.map((role) => ({ value: role, label: t(`operators.roles.${role}`) }));
}

/** The Invite form: email, name, role (staff unless chosen), language; the invitation mail goes out with a sign-in link to this admin. */
function InviteForm({ invited, cancel }: { invited: () => void; cancel: () => void }) {
  const { t, i18n } = useTranslation();
  const client = useClient();
  const roles = useRoleChoices();
  const [values, setValues] = useState({ email: '', name: '', role: 'staff' as AdminUserRole, locale: supported(i18n.language) ?? 'en' });
  const [busy, setBusy] = useState(false);
  const refused = useRefusals();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    refused.clear();
    setBusy(true);
    const input = {
      email: values.email.trim(),
      role: values.role,
      locale: values.locale,
      admin_login_url: new URL(`${import.meta.env.BASE_URL}sign-in`, window.location.origin).href,
      ...(values.name.trim() ? { name: values.name.trim() } : {}),
    };
    const result = await client.mutation(OperatorInvite, { input }).toPromise();
    setBusy(false);
    if (result.error) refused.show(result.error);
    else invited();
  };

  return (
    <Paper withBorder p="md" component="section" aria-label={t('operators.invite')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h3">
            {t('operators.invite')}
          </Title>
          <TextInput
            label={t('operators.fields.email')}
            type="email"
            required
            maxLength={320}
            value={values.email}
            onChange={(e) => setValues({ ...values, email: e.currentTarget.value })}
            error={refused.fields.email}
          />
          <TextInput
            label={t('operators.fields.name')}
            description={t('operators.fields.nameHint')}
            maxLength={120}
            value={values.name}
            onChange={(e) => setValues({ ...values, name: e.currentTarget.value })}
            error={refused.fields.name}
          />
          <Group grow>
            <NativeSelect
              label={t('operators.fields.role')}
              value={values.role}
              onChange={(e) => setValues({ ...values, role: e.currentTarget.value as AdminUserRole })}
              data={roles}
              error={refused.fields.role}
            />
            <NativeSelect
              label={t('operators.fields.locale')}
              value={values.locale}
              onChange={(e) => setValues({ ...values, locale: e.currentTarget.value as typeof values.locale })}
              data={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }))}
              error={refused.fields.locale}
            />
          </Group>
          <ErrorNotice list={refused.others} />
          <Group>
            <Button type="submit" loading={busy}>
              {t('operators.send')}
            </Button>
            <Button variant="default" onClick={cancel}>
              {t('operators.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Change role: the new role (giving or taking one needs every scope of it: the server's subset-of-issuer rule). */
function RoleForm({ operator, close, saved }: { operator: Operator; close: () => void; saved: () => void }) {
  const { t } = useTranslation();
  const client = useClient();
  const roles = useRoleChoices();
  const [role, setRole] = useState(operator.role);
  const [busy, setBusy] = useState(false);
  const refused = useRefusals();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    refused.clear();
    setBusy(true);
    const result = await client.mutation(OperatorUpdate, { input: { admin_user_id: operator.id, role } }).toPromise();
    setBusy(false);
    if (result.error) refused.show(result.error);
    else saved();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <NativeSelect
          label={t('operators.fields.role')}
          value={role}
          onChange={(e) => setRole(e.currentTarget.value as AdminUserRole)}
          data={roles}
          error={refused.fields.role}
        />
        <ErrorNotice list={refused.others} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('operators.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('operators.saveRole')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Settings → Operators: the `operators` connection (oldest first, 50 a page); invite, change role, deactivate (asked first). */
export function Operators() {
  const { t } = useTranslation();
  useTitle(t('operators.title'));
  const can = useScopes();
  const client = useClient();
  const paging = usePaging();
  const [{ data, fetching, error }, reexecute] = useQuery({ query: SettingsOperators, variables: paging.window });
  const [{ data: me }] = useQuery({ query: Whoami });
  const connection = data?.operators;
  const [inviting, setInviting] = useState(false);
  const changing = useDialog<Operator>();
  const deactivating = useDialog<Operator>();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Refusal[]>([]);
  const canWrite = can(OPERATORS_WRITE);
  const self = me?.read_internal_whoami?.actor_id;
  const refresh = () => reexecute({ requestPolicy: 'network-only' });

  const confirmDeactivate = async () => {
    const operator = deactivating.item;
    if (!operator) return;
    setErrors([]);
    setBusy(true);
    const result = await client.mutation(OperatorDeactivate, { id: operator.id }).toPromise();
    setBusy(false);
    deactivating.close();
    if (result.error) setErrors(refusals(result.error));
    else refresh();
  };

  return (
    <Stack>
      <Anchor component={Link} to="/settings" size="sm">
        {t('operators.back')}
      </Anchor>
      <Title order={1}>{t('operators.title')}</Title>
      <Text>{t('operators.intro')}</Text>
      {canWrite &&
        (inviting ? (
          <InviteForm
            cancel={() => setInviting(false)}
            invited={() => {
              setInviting(false);
              refresh();
            }}
          />
        ) : (
          <Group>
            <Button onClick={() => setInviting(true)}>{t('operators.invite')}</Button>
          </Group>
        ))}
      <ErrorNotice list={errors} />
      {error && <ErrorNotice error={error} />}
      <ConnectionTable
        connection={connection}
        fetching={fetching}
        paging={paging}
        total={(count) => t('operators.total', { count })}
        none={t('operators.none')}
        columns={[
          t('operators.columns.name'),
          t('operators.columns.email'),
          t('operators.columns.role'),
          t('operators.columns.locale'),
          t('operators.columns.status'),
          ...(canWrite ? [t('operators.columns.actions')] : []),
        ]}
        cells={(node) => {
          const locale = supported(node.locale);
          return (
            <>
              <Table.Td>{node.name}</Table.Td>
              <Table.Td>{node.email}</Table.Td>
              <Table.Td>{t(`operators.roles.${node.role}`)}</Table.Td>
              <Table.Td>{locale ? LOCALE_NAMES[locale] : node.locale}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={node.status === 'active' ? 'green' : node.status === 'invited' ? 'blue' : 'gray'}>
                  {t(`operators.statuses.${node.status}`)}
                </Badge>
              </Table.Td>
              {canWrite && (
                <Table.Td>
                  {/* One's own role and account are not changed from here: an owner cannot lock themselves out by a click. */}
                  {node.status !== 'deactivated' && node.id !== self && (
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" aria-label={t('operators.changeRoleNamed', { name: node.name })} onClick={() => changing.open(node)}>
                        {t('operators.changeRole')}
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        aria-label={t('operators.deactivateNamed', { name: node.name })}
                        onClick={() => deactivating.open(node)}
                      >
                        {t('operators.deactivate')}
                      </Button>
                    </Group>
                  )}
                </Table.Td>
              )}
            </>
          );
        }}
      />
      <Modal
        opened={changing.opened}
        onClose={changing.close}
        title={t('operators.changeRoleTitle', { name: changing.item?.name ?? '' })}
        closeButtonProps={{ 'aria-label': t('operators.close') }}
        centered
      >
        {changing.item && (
          <RoleForm
            key={changing.item.id}
            operator={changing.item}
            close={changing.close}
            saved={() => {
              changing.close();
              refresh();
            }}
          />
        )}
      </Modal>
      <Modal
        opened={deactivating.opened}
        onClose={deactivating.close}
        title={t('operators.deactivateTitle')}
        closeButtonProps={{ 'aria-label': t('operators.close') }}
        centered
      >
        <Stack>
          <Text>{t('operators.deactivateQuestion', { name: deactivating.item?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={deactivating.close}>
              {t('operators.keep')}
            </Button>
            <Button color="red" loading={busy} onClick={confirmDeactivate}>
              {t('operators.confirmDeactivate')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

import { Anchor, Badge, Button, Checkbox, Group, NumberInput, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClient, useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorNotice } from '../components/ErrorNotice';
import { SecretDialog } from '../components/SecretDialog';
import { Loading } from '../components/Loading';
import { Pager } from '../components/Pager';
import { usePaging } from '../components/paging';
import { useScopes } from '../components/useScopes';
import { useTitle } from '../components/useTitle';
import { dateTime } from '../format';
import { byListField, type Refusal, refusals } from '../graphql/errors';
import { ApiKeyCreate, ApiKeyRevoke, ApiKeysList } from '../graphql/operations';
import { KNOWN_SCOPES } from '../scopes';
import { RotateDialog } from './ApiKeyRotate';

/** The scope creating and revoking need (the server checks it anyway; the list needs admin.users.read). */
export const KEYS_WRITE = 'admin.users.write';

/** The New API key form: name, scopes (only the operator's own can be given), expiry; refusals on their fields. */
function CreateForm({ held, created, cancel }: { held: (scope: string) => boolean; created: (token: string) => void; cancel: () => void }) {
  const { t } = useTranslation();
  const client = useClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [days, setDays] = useState<number | string>('');
  const [never, setNever] = useState(false);
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [others, setOthers] = useState<Refusal[]>([]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFields({});
    setOthers([]);
    setBusy(true);
    const input = {
      name: name.trim(),
      scopes,
      ...(never ? { never_expires: true } : days === '' ? {} : { expires_in_days: Number(days) }),
    };
    const result = await client.mutation(ApiKeyCreate, { input }, { additionalTypenames: ['ApiKey'] }).toPromise();
    setBusy(false);
    const token = result.data?.iam_api_key_create?.token;
    if (!result.error && token) {
      created(token);
      return;
    }
    if (!result.error) return;
    // `scopes[i]`, `event_types[i]`: about the list's group of inputs.
    const found = byListField(refusals(result.error));
    setFields(found.fields);
    setOthers(found.others);
  };

  return (
    <Paper withBorder p="md" component="section" aria-label={t('apiKeys.new')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h3">
            {t('apiKeys.new')}
          </Title>
          <TextInput
            label={t('apiKeys.fields.name')}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fields.name}
            maxLength={120}
          />
          <Checkbox.Group
            label={t('apiKeys.fields.scopes')}
            description={t('apiKeys.fields.scopesHint')}
            value={scopes}
            onChange={setScopes}
            error={fields.scopes}
          >
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} mt="xs" spacing="xs">
              {KNOWN_SCOPES.map((scope) => (
                <Checkbox key={scope} value={scope} label={scope} disabled={!held(scope)} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Group align="flex-start">
            <NumberInput
              label={t('apiKeys.fields.expiresInDays')}
              description={t('apiKeys.fields.expiresHint')}
              min={1}
              max={3650}
              allowDecimal={false}
              allowNegative={false}
              value={days}
              onChange={setDays}
              disabled={never}
              error={fields.expires_in_days}
            />
            <Checkbox
              mt={30}
              label={t('apiKeys.fields.neverExpires')}
              checked={never}
              onChange={(e) => setNever(e.currentTarget.checked)}
              error={fields.never_expires}
            />
          </Group>
          <ErrorNotice list={others} />
          <Group>
            <Button type="submit" loading={busy}>
              {t('apiKeys.create')}
            </Button>
            <Button variant="default" onClick={cancel}>
              {t('apiKeys.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Developers → API keys: the `api_keys` connection (newest first, 50 a page), a new key or a rotated one (its token shown once), revoke (asked first). */
export function ApiKeys() {
  const { t, i18n } = useTranslation();
  useTitle(t('apiKeys.title'));
  const can = useScopes();
  const paging = usePaging();
  const [{ data, fetching, error }, reexecute] = useQuery({ query: ApiKeysList, variables: paging.window });
  const connection = data?.api_keys;
  const [creating, setCreating] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const [rotating, setRotating] = useState<{ id: string; name: string } | null>(null);
  const [revoked, revoke] = useMutation(ApiKeyRevoke);
  const [errors, setErrors] = useState<Refusal[]>([]);
  const canWrite = can(KEYS_WRITE);
  const refresh = () => reexecute({ requestPolicy: 'network-only' });

  const confirmRevoke = async () => {
    if (!revoking) return;
    const id = revoking.id;
    setRevoking(null);
    setErrors([]);
    const result = await revoke({ id });
    if (result.error) setErrors(refusals(result.error));
    else refresh();
  };

  return (
    <Stack>
      <Anchor component={Link} to="/settings" size="sm">
        {t('apiKeys.back')}
      </Anchor>
      <Title order={1}>{t('apiKeys.title')}</Title>
      <Text>{t('apiKeys.intro')}</Text>
      {canWrite &&
        (creating ? (
          <CreateForm
            held={can}
            cancel={() => setCreating(false)}
            created={(value) => {
              setCreating(false);
              setToken(value);
              refresh();
            }}
          />
        ) : (
          <Group>
            <Button onClick={() => setCreating(true)}>{t('apiKeys.new')}</Button>
          </Group>
        ))}
      <SecretDialog
        secret={token}
        close={() => setToken(null)}
        title={t('apiKeys.token.title')}
        once={t('apiKeys.token.once')}
        label={t('apiKeys.token.label')}
        copy={t('apiKeys.token.copy')}
      />
      <RotateDialog
        target={rotating}
        close={() => setRotating(null)}
        rotated={(value) => {
          setToken(value);
          refresh();
        }}
      />
      <ErrorNotice list={errors} />
      {error && <ErrorNotice error={error} />}
      {fetching && !connection ? (
        <Loading />
      ) : connection ? (
        <>
          {connection.totalCount !== null && (
            <Text size="sm" c="dimmed" role="status">
              {t('apiKeys.total', { count: connection.totalCount })}
            </Text>
          )}
          <Table.ScrollContainer minWidth={720}>
            <Table striped aria-busy={fetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('apiKeys.columns.name')}</Table.Th>
                  <Table.Th scope="col">{t('apiKeys.columns.scopes')}</Table.Th>
                  <Table.Th scope="col">{t('apiKeys.columns.expires')}</Table.Th>
                  <Table.Th scope="col">{t('apiKeys.columns.status')}</Table.Th>
                  {canWrite && <Table.Th scope="col">{t('apiKeys.columns.actions')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {connection.edges.map(({ node }) => (
                  <Table.Tr key={node.id}>
                    <Table.Td>
                      {node.name}
                      {node.is_owner && (
                        <Badge ml="xs" variant="light" color="blue">
                          {t('apiKeys.owner')}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {node.scopes.join(', ')}
                      </Text>
                    </Table.Td>
                    <Table.Td>{node.expires_at ? dateTime(node.expires_at, i18n.language) : t('apiKeys.never')}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={node.revoked ? 'red' : 'green'}>
                        {node.revoked ? t('apiKeys.revoked') : t('apiKeys.active')}
                      </Badge>
                    </Table.Td>
                    {canWrite && (
                      <Table.Td>
                        {!node.revoked && (
                          <Button
                            size="xs"
                            variant="light"
                            mr="xs"
                            aria-label={t('apiKeys.rotateNamed', { name: node.name })}
                            onClick={() => setRotating({ id: node.id, name: node.name })}
                          >
                            {t('apiKeys.rotate')}
                          </Button>
                        )}
                        {!node.revoked && !node.is_owner && (
                          <Button
                            size="xs"
                            color="red"
                            variant="light"
                            aria-label={t('apiKeys.revokeNamed', { name: node.name })}
                            onClick={() => setRevoking({ id: node.id, name: node.name })}
                          >
                            {t('apiKeys.revoke')}
                          </Button>
                        )}
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {connection.edges.length === 0 && <Text>{t('apiKeys.none')}</Text>}
          <Pager
            hasPrevious={connection.pageInfo.hasPreviousPage}
            hasNext={connection.pageInfo.hasNextPage}
            onPrevious={() => paging.previous(connection.pageInfo.startCursor)}
            onNext={() => paging.next(connection.pageInfo.endCursor)}
          />
        </>
      ) : null}
      <ConfirmDialog
        opened={revoking !== null}
        title={t('apiKeys.revokeTitle')}
        question={t('apiKeys.revokeQuestion', { name: revoking?.name ?? '' })}
        keep={t('apiKeys.keep')}
        confirm={t('apiKeys.confirmRevoke')}
        close={t('apiKeys.token.close')}
        busy={revoked.fetching}
        onClose={() => setRevoking(null)}
        onConfirm={confirmRevoke}
      />
    </Stack>
  );
}

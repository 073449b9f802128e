import { Alert, Badge, Box, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { byField, type Refusal, refusals } from '../../graphql/errors';
import { NotificationTemplatePreview, NotificationTemplateSet } from '../../graphql/operations';
import { LOCALES, LOCALE_NAMES } from '../../i18n';
import type { NotificationTemplatePreviewQuery } from '../../gql/graphql';
import type { Channel } from './ChannelList';
import { typeLabel } from './labels';

type Fields = Record<string, string>;
/** The channel as the editor reads it: its template fields whole (a select's choices with them). */
type EditedChannel = NonNullable<NotificationTemplatePreviewQuery['notification_channels']>['edges'][number]['node'];

const asFields = (value: unknown): Fields =>
  value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};

/**
 * What the server rendered, field by field: an html field in a sandboxed frame (no scripts, no
 * same-origin: its document is inert, and the page's CSP still applies to it), the others as text.
 */
function Preview({ channel, rendered }: { channel: EditedChannel; rendered: Fields }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      {channel.variant_schema
        .filter((field) => rendered[field.name] !== undefined)
        .map((field) =>
          field.type === 'html' ? (
            <Box key={field.name}>
              <Text size="sm" fw={600}>
                {field.label}
              </Text>
              <iframe
                sandbox=""
                srcDoc={rendered[field.name]}
                title={t('notifications.templates.previewOf', { field: field.label })}
                style={{ width: '100%', height: 220, border: '1px solid var(--mantine-color-gray-4)', background: 'white' }}
              />
            </Box>
          ) : (
            <Box key={field.name}>
              <Text size="sm" fw={600}>
                {field.label}
              </Text>
              <Text component="pre" size="sm" style={{ whiteSpace: 'pre-wrap' }} aria-label={t('notifications.templates.previewOf', { field: field.label })}>
                {rendered[field.name]}
              </Text>
            </Box>
          ),
        )}
    </Stack>
  );
}

/** The template's fields as the channel declares them, started from the template in use; saved whole (notification.template.set). */
function TemplateForm({
  channel,
  type,
  locale,
  initial,
  canWrite,
  saved,
}: {
  channel: EditedChannel;
  type: string;
  locale: string;
  initial: Fields;
  canWrite: boolean;
  saved: () => void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Fields>(initial);
  const [{ fetching }, save] = useMutation(NotificationTemplateSet);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [others, setOthers] = useState<Refusal[]>([]);
  const [done, setDone] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    setOthers([]);
    setDone(false);
    const fields = Object.fromEntries(channel.variant_schema.filter((f) => values[f.name]).map((f) => [f.name, values[f.name]]));
    const result = await save({ input: { type_key: type, channel_key: channel.channel_key, locale, fields } });
    if (result.error) {
      const found = byField(refusals(result.error));
      setErrors(Object.fromEntries(Object.entries(found.fields).map(([path, message]) => [path.replace(/^fields\./, ''), message])));
      setOthers(found.others);
      return;
    }
    setDone(true);
    saved();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {channel.variant_schema.map((field) => {
          const common = {
            label: field.label,
            description: field.help ?? undefined,
            required: field.required,
            readOnly: !canWrite,
            value: values[field.name] ?? '',
            error: errors[field.name],
          };
          // A refusal is about the value refused: editing the field clears it.
          const set = (value: string) => {
            setValues({ ...values, [field.name]: value });
            setErrors(({ [field.name]: _fixed, ...rest }) => rest);
          };
          if (field.type === 'select')
            return (
              <NativeSelect
                key={field.name}
                {...common}
                disabled={!canWrite}
                onChange={(e) => set(e.currentTarget.value)}
                data={[{ value: '', label: t('common.empty') }, ...(field.options ?? [])]}
              />
            );
          return field.type === 'text' || field.type === 'variable_list' ? (
            <TextInput key={field.name} {...common} onChange={(e) => set(e.currentTarget.value)} />
          ) : (
            <Textarea
              key={field.name}
              {...common}
              autosize
              minRows={3}
              maxRows={12}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              onChange={(e) => set(e.currentTarget.value)}
            />
          );
        })}
        <ErrorNotice list={others} />
        {done && (
          <Alert color="green" role="status">
            {t('notifications.templates.saved')}
          </Alert>
        )}
        {canWrite && (
          <Group>
            <Button type="submit" loading={fetching}>
              {t('notifications.templates.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** Templates per message type and locale (tenant-wide), edited beside the preview the server renders of the one in use. */
export function TemplateEditor({ channels, canWrite }: { channels: Channel[]; canWrite: boolean }) {
  const { t } = useTranslation();
  const [channelKey, setChannelKey] = useState(channels[0]?.channel_key ?? 'email');
  const channel = channels.find((c) => c.channel_key === channelKey) ?? channels[0];
  const [type, setType] = useState(channel?.message_types[0]?.type_key ?? 'order.paid');
  const [locale, setLocale] = useState<string>(LOCALES[0]);
  const [{ data, fetching, error }, reexecute] = useQuery({ query: NotificationTemplatePreview, variables: { channel: channelKey, type, locale } });
  const edited = data?.notification_channels?.edges[0]?.node;
  const preview = edited?.effective_template;
  if (!channel) return null;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="notification-templates">
      <Stack>
        <Title order={2} size="h3" id="notification-templates">
          {t('notifications.templates.title')}
        </Title>
        <Text size="sm">{t('notifications.templates.intro')}</Text>
        <Group align="flex-end">
          <NativeSelect
            label={t('notifications.templates.channel')}
            value={channelKey}
            onChange={(e) => setChannelKey(e.currentTarget.value)}
            data={channels.map((c) => ({ value: c.channel_key, label: c.label }))}
          />
          <NativeSelect
            label={t('notifications.templates.type')}
            value={type}
            onChange={(e) => setType(e.currentTarget.value)}
            data={channel.message_types.map((m) => ({ value: m.type_key, label: typeLabel(t, m.type_key) }))}
          />
          <NativeSelect
            label={t('notifications.templates.locale')}
            value={locale}
            onChange={(e) => setLocale(e.currentTarget.value)}
            data={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }))}
          />
        </Group>
        {error && <ErrorNotice error={error} />}
        {fetching && !data ? (
          <Loading />
        ) : (
          edited && (
            <SimpleGrid cols={{ base: 1, lg: 2 }}>
              <TemplateForm
                key={`${edited.channel_key}|${type}|${locale}|${preview ? 'found' : 'none'}`}
                channel={edited}
                type={type}
                locale={locale}
                initial={asFields(preview?.fields)}
                canWrite={canWrite}
                saved={() => reexecute({ requestPolicy: 'network-only' })}
              />
              <Stack component="section" aria-labelledby="template-preview" gap="xs">
                <Group gap="xs">
                  <Title order={3} size="h4" id="template-preview">
                    {t('notifications.templates.preview')}
                  </Title>
                  {preview && (
                    <Badge variant="light">
                      {preview.level === 'default'
                        ? t('notifications.templates.levelDefault', { locale: preview.locale })
                        : t('notifications.templates.levelTenant', { locale: preview.locale })}
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="dimmed">
                  {t('notifications.templates.examples')}
                </Text>
                {preview ? <Preview channel={edited} rendered={asFields(preview.rendered)} /> : <Text>{t('notifications.templates.none')}</Text>}
              </Stack>
            </SimpleGrid>
          )
        )}
      </Stack>
    </Paper>
  );
}

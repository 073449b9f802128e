import { Button, Group, Paper, Stack, TagsInput, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import { byListField, type Refusal, refusals } from '../../graphql/errors';
import { WebhookCreate } from '../../graphql/operations';

/**
 * A new subscription: url, event types (`*`: all; the server refuses a type it does not declare, on the
 * field) and a description. Its secret goes to `created`, asked through the client directly so that
 * urql keeps no result holding it.
 */
export function WebhookCreateForm({ created, cancel }: { created: (secret: string) => void; cancel: () => void }) {
  const { t } = useTranslation();
  const client = useClient();
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>(['*']);
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [others, setOthers] = useState<Refusal[]>([]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFields({});
    setOthers([]);
    setBusy(true);
    const input = { url: url.trim(), event_types: types, ...(description.trim() ? { description: description.trim() } : {}) };
    const result = await client.mutation(WebhookCreate, { input }).toPromise();
    setBusy(false);
    const secret = result.data?.webhook_subscription_create?.secret;
    if (!result.error && secret) {
      created(secret);
      return;
    }
    if (!result.error) return;
    // `scopes[i]`, `event_types[i]`: about the list's group of inputs.
    const found = byListField(refusals(result.error));
    setFields(found.fields);
    setOthers(found.others);
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="webhook-new">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h3" id="webhook-new">
            {t('webhooks.new')}
          </Title>
          <TextInput
            label={t('webhooks.fields.url')}
            description={t('webhooks.fields.urlHint')}
            required
            maxLength={2048}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={fields.url}
          />
          <TagsInput
            label={t('webhooks.fields.eventTypes')}
            description={t('webhooks.fields.eventTypesHint')}
            required
            maxTags={100}
            value={types}
            onChange={setTypes}
            error={fields.event_types}
          />
          <TextInput
            label={t('webhooks.fields.description')}
            maxLength={200}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={fields.description}
          />
          <ErrorNotice list={others} />
          <Group>
            <Button type="submit" loading={busy}>
              {t('webhooks.create')}
            </Button>
            <Button variant="default" onClick={cancel}>
              {t('webhooks.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

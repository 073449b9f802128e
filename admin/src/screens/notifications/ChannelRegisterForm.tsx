import { Alert, ActionIcon, Button, Checkbox, Group, NativeSelect, Paper, Stack, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from 'urql';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { NotificationChannelRegisterInputVariantSchemaType as FieldType } from '../../gql/graphql';
import { byField, type Refusal, refusals } from '../../graphql/errors';
import { NotificationChannelRegister } from '../../graphql/operations';

const FIELD_TYPES: readonly FieldType[] = ['text', 'multiline', 'html', 'select', 'variable_list'];
/** A channel declares at most this many fields (the server's CHANNEL_FIELDS_MAX). */
const FIELDS_MAX = 40;

interface Field {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  /** A select's choices, comma-separated (each its own value and label). */
  options: string;
}

const blank = (): Field => ({ name: '', label: '', type: 'text', required: false, options: '' });

/** Register a channel (or declare one again): its key, label, notice and template fields; refusals on their fields. */
export function ChannelRegisterForm({ registered }: { registered: () => void }) {
  const { t } = useTranslation();
  const [{ fetching }, register] = useMutation(NotificationChannelRegister);
  const [key, setKey] = useState('');
  const [label, setLabel] = useState('');
  const [notice, setNotice] = useState('');
  const [fields, setFieldRows] = useState<Field[]>([blank()]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [others, setOthers] = useState<Refusal[]>([]);
  const [done, setDone] = useState<string | null>(null);

  const change = (i: number, patch: Partial<Field>) => setFieldRows(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    setOthers([]);
    setDone(null);
    const variant_schema = fields.map((f) => {
      const options = f.options
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .map((value) => ({ value, label: value }));
      return { name: f.name.trim(), label: f.label.trim(), type: f.type, required: f.required, ...(f.type === 'select' ? { options } : {}) };
    });
    const input = { key: key.trim(), label: label.trim(), variant_schema, ...(notice.trim() ? { notice: notice.trim() } : {}) };
    const result = await register({ input });
    if (result.error) {
      const found = byField(refusals(result.error));
      setErrors(found.fields);
      setOthers(found.others);
      return;
    }
    setDone(input.key);
    setKey('');
    setLabel('');
    setNotice('');
    setFieldRows([blank()]);
    registered();
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="channel-register">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h3" id="channel-register">
            {t('notifications.register.title')}
          </Title>
          <Group align="flex-start" grow>
            <TextInput
              label={t('notifications.register.key')}
              description={t('notifications.register.keyHint')}
              required
              maxLength={64}
              value={key}
              onChange={(e) => setKey(e.currentTarget.value)}
              error={errors.key}
            />
            <TextInput
              label={t('notifications.register.label')}
              required
              maxLength={80}
              value={label}
              onChange={(e) => setLabel(e.currentTarget.value)}
              error={errors.label}
            />
          </Group>
          <TextInput
            label={t('notifications.register.notice')}
            maxLength={400}
            value={notice}
            onChange={(e) => setNotice(e.currentTarget.value)}
            error={errors.notice}
          />
          {fields.map((field, i) => (
            // The rows have no identity but their place: adding or removing one renumbers the labels too.
            <Group key={i} align="flex-end" role="group" aria-label={t('notifications.register.fieldN', { n: i + 1 })}>
              <TextInput
                label={t('notifications.register.fieldName', { n: i + 1 })}
                value={field.name}
                maxLength={64}
                onChange={(e) => change(i, { name: e.currentTarget.value })}
                error={errors[`variant_schema[${i}].name`]}
              />
              <TextInput
                label={t('notifications.register.fieldLabel', { n: i + 1 })}
                value={field.label}
                maxLength={120}
                onChange={(e) => change(i, { label: e.currentTarget.value })}
                error={errors[`variant_schema[${i}].label`]}
              />
              <NativeSelect
                label={t('notifications.register.fieldType', { n: i + 1 })}
                value={field.type}
                onChange={(e) => change(i, { type: e.currentTarget.value as FieldType })}
                data={FIELD_TYPES.map((type) => ({ value: type, label: t(`notifications.fieldTypes.${type}`) }))}
              />
              {field.type === 'select' && (
                <TextInput
                  label={t('notifications.register.options', { n: i + 1 })}
                  value={field.options}
                  onChange={(e) => change(i, { options: e.currentTarget.value })}
                  error={errors[`variant_schema[${i}].options`]}
                />
              )}
              <Checkbox
                mb={8}
                label={t('notifications.register.required', { n: i + 1 })}
                checked={field.required}
                onChange={(e) => change(i, { required: e.currentTarget.checked })}
              />
              <ActionIcon
                variant="default"
                size="lg"
                disabled={fields.length === 1}
                aria-label={t('notifications.register.removeField', { n: i + 1 })}
                onClick={() => setFieldRows(fields.filter((_, j) => j !== i))}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          {errors.variant_schema && <ErrorNotice list={[{ message: errors.variant_schema }]} />}
          <ErrorNotice list={others} />
          {done && (
            <Alert color="green" role="status">
              {t('notifications.register.done', { key: done })}
            </Alert>
          )}
          <Group>
            <Button variant="default" disabled={fields.length >= FIELDS_MAX} onClick={() => setFieldRows([...fields, blank()])}>
              {t('notifications.register.addField')}
            </Button>
            <Button type="submit" loading={fetching}>
              {t('notifications.register.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

import { Button, Checkbox, Group, Modal, NativeSelect, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient, useQuery } from 'urql';
import { ErrorNotice } from '../components/ErrorNotice';
import { useRefusals } from '../components/useRefusals';
import { PageCreate, PageUpdate, SettingsStores } from '../graphql/operations';
import type { SettingsPagesQuery } from '../gql/graphql';

export type Page = NonNullable<SettingsPagesQuery['pages']>['edges'][number]['node'];

/** A tenant's stores to choose from when a page is created (a page never moves to another store). */
const STORE_CHOICES = { first: 100 };

interface Values {
  store_id: string;
  title: string;
  slug: string;
  template_key: string;
  meta_title: string;
  meta_description: string;
  published: boolean;
}

const valuesOf = (page: Page | null): Values => ({
  store_id: page?.store_id ?? '',
  title: page?.title ?? '',
  slug: page?.slug ?? '',
  template_key: page?.template_key ?? 'page',
  meta_title: page?.meta_title ?? '',
  meta_description: page?.meta_description ?? '',
  published: page?.published ?? false,
});

/**
 * What the storefront shows of the page (read.pages answers the same fields): its tab title, heading,
 * search description and the theme template holding its content. Rendered as text by React (escaped),
 * never as markup: a title is the merchant's text, and nothing in it runs.
 */
function Preview({ values, store }: { values: Values; store: string }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="section" aria-label={t('pages.preview.title')} bg="var(--mantine-color-gray-0)">
      <Stack gap="xs">
        <Text size="xs" c="dimmed">
          {t('pages.preview.address', { store, slug: values.slug || '…' })}
        </Text>
        <Text size="sm" fw={600}>
          {t('pages.preview.tab', { title: values.meta_title.trim() || values.title.trim() || '…' })}
        </Text>
        <Title order={3}>{values.title.trim() || '…'}</Title>
        <Text size="sm">{values.meta_description.trim() || t('pages.preview.noDescription')}</Text>
        <Text size="sm" c="dimmed">
          {t('pages.preview.template', { key: values.template_key.trim() || '…' })}
        </Text>
        {!values.published && (
          <Text size="sm" fw={600}>
            {t('pages.preview.draft')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** The page editor (a new page when `page` is null): store, title, slug, template, meta fields, published; a preview; refusals on fields. */
function EditorForm({ page, close, saved }: { page: Page | null; close: () => void; saved: () => void }) {
  const { t } = useTranslation();
  const client = useClient();
  const [{ data: stores }] = useQuery({ query: SettingsStores, variables: STORE_CHOICES, pause: page !== null });
  const choices = stores?.stores?.edges.map(({ node }) => node) ?? [];
  const [values, setValues] = useState(() => valuesOf(page));
  const [previewing, setPreviewing] = useState(false);
  const [busy, setBusy] = useState(false);
  const refused = useRefusals();
  const storeId = values.store_id || choices[0]?.id || '';
  const store = page?.store ?? choices.find((s) => s.id === storeId);
  const text = (key: Exclude<keyof Values, 'published'>) => ({
    value: values[key],
    onChange: (e: { currentTarget: { value: string } }) => setValues({ ...values, [key]: e.currentTarget.value }),
    error: refused.fields[key],
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    refused.clear();
    const meta = (value: string) => value.trim() || null;
    const fields = {
      title: values.title.trim(),
      slug: values.slug.trim(),
      template_key: values.template_key.trim(),
      published: values.published,
      meta_title: meta(values.meta_title),
      meta_description: meta(values.meta_description),
    };
    setBusy(true);
    const result = page
      ? await client.mutation(PageUpdate, { input: { page_id: page.id, ...fields } }).toPromise()
      : await client.mutation(PageCreate, { input: { store_id: storeId, ...fields } }).toPromise();
    setBusy(false);
    if (result.error) refused.show(result.error);
    else saved();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {page === null && (
          <NativeSelect
            label={t('pages.fields.store')}
            required
            value={storeId}
            onChange={(e) => setValues({ ...values, store_id: e.currentTarget.value })}
            data={choices.map((s) => ({ value: s.id, label: s.name }))}
            error={refused.fields.store_id}
          />
        )}
        <TextInput label={t('pages.fields.title')} required maxLength={200} {...text('title')} />
        <TextInput label={t('pages.fields.slug')} description={t('pages.fields.slugHint')} required maxLength={120} {...text('slug')} />
        <TextInput label={t('pages.fields.template')} description={t('pages.fields.templateHint')} required maxLength={200} {...text('template_key')} />
        <TextInput label={t('pages.fields.metaTitle')} description={t('pages.fields.metaHint')} maxLength={200} {...text('meta_title')} />
        <Textarea
          label={t('pages.fields.metaDescription')}
          description={t('pages.fields.metaHint')}
          maxLength={1000}
          autosize
          minRows={2}
          {...text('meta_description')}
        />
        <Checkbox
          label={t('pages.fields.published')}
          checked={values.published}
          onChange={(e) => setValues({ ...values, published: e.currentTarget.checked })}
          error={refused.fields.published}
        />
        {previewing && <Preview values={values} store={store?.host ?? store?.handle ?? '…'} />}
        <ErrorNotice list={refused.others} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('pages.cancel')}
          </Button>
          <Button variant="light" onClick={() => setPreviewing(!previewing)} aria-expanded={previewing}>
            {previewing ? t('pages.hidePreview') : t('pages.showPreview')}
          </Button>
          <Button type="submit" loading={busy}>
            {page ? t('pages.save') : t('pages.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The editor in a dialog: `page` to change, `'new'` to create. */
export function PageEditorDialog({ page, opened, close, saved }: { page: Page | 'new' | null; opened: boolean; close: () => void; saved: () => void }) {
  const { t } = useTranslation();
  const editing = page === 'new' ? null : page;
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={editing ? t('pages.editTitle', { title: editing.title }) : t('pages.new')}
      closeButtonProps={{ 'aria-label': t('pages.close') }}
      centered
      size="lg"
    >
      {page !== null && <EditorForm key={editing?.id ?? 'new'} page={editing} close={close} saved={saved} />}
    </Modal>
  );
}

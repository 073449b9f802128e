import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from 'urql';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { Section } from '../components/Section';
import { useTitle } from '../components/useTitle';
import { ProductChoices, ProductPage } from '../graphql/operations';
import { CustomFields } from './product/CustomFields';
import type { Choices } from './product/form';
import { Media } from './product/Media';
import { NewSku } from './product/NewSku';
import { Options } from './product/Options';
import { ProductForm } from './product/ProductForm';
import { SkuCard } from './product/SkuCard';
import { Stores } from './product/Stores';

/**
 * Catalog → a product: its details, custom fields, options, media, SKUs (price, shipping weight and
 * size, promotion, media, stock per warehouse) and its stores, each part a form of its own
 * (screens/product/). /catalog/products/new creates one.
 */
export function ProductEditor() {
  const { t } = useTranslation();
  const id = useParams().id;
  const navigate = useNavigate();
  const [choicesResult] = useQuery({ query: ProductChoices });
  const [{ data, fetching, error }, refetch] = useQuery({ query: ProductPage, variables: { id: id ?? '' }, pause: !id });
  const product = data?.catalog_product ?? undefined;
  const heading = id ? (product?.title ?? t('product.title')) : t('product.new');
  useTitle(heading);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const c = choicesResult.data;
  const choices: Choices | undefined = c
    ? {
        brands: c.brands?.edges.map((e) => e.node) ?? [],
        categories: c.categories?.edges.map((e) => e.node) ?? [],
        stores: c.stores?.edges.map((e) => e.node) ?? [],
        warehouses: c.warehouses?.edges.map((e) => e.node) ?? [],
      }
    : undefined;

  return (
    <Stack>
      <Anchor component={Link} to="/catalog/products" size="sm">
        ← {t('product.back')}
      </Anchor>
      <Title order={1}>{heading}</Title>
      {choicesResult.error && <ErrorNotice error={choicesResult.error} />}
      {error && <ErrorNotice error={error} />}
      {!id ? (
        <ProductForm choices={choices} onSaved={(productId) => navigate(`/catalog/products/${productId}`, { replace: true })} />
      ) : fetching && !product ? (
        <Loading />
      ) : product ? (
        <>
          <Section title={t('product.details')}>
            <ProductForm key={product.id} product={product} choices={choices} onSaved={reload} />
          </Section>
          <Section title={t('product.custom.title')}>
            <CustomFields key={JSON.stringify(product.custom_fields ?? {})} product={product} onSaved={reload} />
          </Section>
          <Section title={t('product.options.title')}>
            <Options product={product} onSaved={reload} />
          </Section>
          <Section title={t('product.media.title')}>
            <Media owner={{ type: 'product', id: product.id, label: product.title }} media={product.media} onSaved={reload} />
          </Section>
          <Section title={t('product.skus')}>
            {product.skus.length === 0 && <Text c="dimmed">{t('product.noSkus')}</Text>}
            {product.skus.map((sku) => (
              <SkuCard key={sku.id} sku={sku} warehouses={choices?.warehouses ?? []} onSaved={reload} />
            ))}
            <NewSku key={(product.options ?? []).length} product={product} onSaved={reload} />
          </Section>
          <Section title={t('product.stores.title')}>
            <Stores product={product} stores={choices?.stores ?? []} onSaved={reload} />
          </Section>
        </>
      ) : (
        !error && <Text>{t('product.notFound')}</Text>
      )}
    </Stack>
  );
}

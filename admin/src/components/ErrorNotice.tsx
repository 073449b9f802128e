import { Alert, List } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CombinedError } from '@urql/core';
import { type Refusal, refusals } from '../graphql/errors';

/** A request's refusals in words (the gateway's messages), announced to screen readers as an alert. */
export function ErrorNotice({ error, list }: { error?: CombinedError; list?: readonly Refusal[] }) {
  const { t } = useTranslation();
  const shown = list ?? (error ? refusals(error) : []);
  if (shown.length === 0) return null;
  const network = error && error.graphQLErrors.length === 0;
  return (
    <Alert color="red" title={t('errors.title')} role="alert">
      {network ? (
        t('errors.network')
      ) : shown.length === 1 ? (
        shown[0].message
      ) : (
        <List size="sm">
          {shown.map((refusal, i) => (
            // Refusals have no identity of their own; their order is the server's.
            <List.Item key={i}>{refusal.message}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

import { useQuery } from 'urql';
import { Whoami } from '../graphql/operations';

/**
 * Whether the signed-in operator holds a scope (`read_internal_whoami.scopes`, from their role). Until
 * the answer comes, nothing is held: controls appear once it is known. It only hides what would be
 * refused: the server checks every scope anyway.
 */
export function useScopes(): (scope: string) => boolean {
  const [{ data }] = useQuery({ query: Whoami });
  const scopes = data?.read_internal_whoami?.scopes ?? [];
  return (scope: string) => scopes.includes(scope);
}

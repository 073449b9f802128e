import type { CombinedError } from '@urql/core';
import { useState } from 'react';
import { byField, type Refusal, refusals } from '../graphql/errors';

/**
 * A form's refusals: those naming a field (shown on its input, keyed by the input's path) and the
 * rest (shown as an alert). `show` replaces them with an answer's, `clear` forgets them.
 */
export function useRefusals() {
  const [fields, setFields] = useState<Record<string, string>>({});
  const [others, setOthers] = useState<Refusal[]>([]);
  return {
    fields,
    others,
    clear: () => {
      setFields({});
      setOthers([]);
    },
    show: (error: CombinedError) => {
      const found = byField(refusals(error));
      setFields(found.fields);
      setOthers(found.others);
    },
  };
}

import { useState } from 'react';

/**
 * A dialog about one item: the item stays while the dialog fades out after `close`, so its title and
 * content do not change under the operator's eyes (nor under a test waiting for it to leave).
 */
export function useDialog<T>() {
  const [state, setState] = useState<{ item: T | null; opened: boolean }>({ item: null, opened: false });
  return {
    item: state.item,
    opened: state.opened,
    open: (item: T) => setState({ item, opened: true }),
    close: () => setState((now) => ({ ...now, opened: false })),
  };
}

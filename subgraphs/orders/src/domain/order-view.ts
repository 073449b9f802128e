import { maskPersonal, t } from '@backoffice/platform';

/** Personal: masked whole without pii.read, the email keeping its domain (for support). */
export const customerView = t.object({ email: t.email(), name: t.nullable(t.string()), phone: t.nullable(t.string()) }, { personal: true });
/** Personal but for the country (not personal on its own). */
const addressObject = t.object(
  {
    name: t.string(),
    line1: t.string(),
    line2: t.nullable(t.string()),
    city: t.string(),
    region: t.nullable(t.string()),
    postal_code: t.string(),
    country: t.string({ personal: false }),
  },
  { personal: true },
);
export const addressView = t.nullable(addressObject);

type Customer = { email: string; name?: string; phone?: string };
type Address = { name: string; line1: string; line2?: string; city: string; region?: string; postal_code: string; country: string };

/** The customer as the actor may see it: everything, or masked (the email keeps its domain, for support). */
export function customerFor(customer: Customer, pii: boolean) {
  const view = { email: customer.email, name: customer.name ?? null, phone: customer.phone ?? null };
  return pii ? view : maskPersonal(customerView, view);
}

/** The address as the actor may see it: the country stays (it is not personal on its own). */
export function addressFor(address: Address | null, pii: boolean) {
  if (!address) return null;
  const view = {
    name: address.name,
    line1: address.line1,
    line2: address.line2 ?? null,
    city: address.city,
    region: address.region ?? null,
    postal_code: address.postal_code,
    country: address.country,
  };
  return pii ? view : maskPersonal(addressObject, view);
}

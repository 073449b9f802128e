import { Navigate, type RouteObject } from 'react-router';
import { Loading } from './components/Loading';

/**
 * The screens, each its own chunk loaded when first visited (react-router's `lazy`). Paths are under
 * the app's base, /admin (the router's basename).
 */
export const routes: RouteObject[] = [
  {
    HydrateFallback: Loading,
    children: [
      { path: 'sign-in', lazy: () => import('./screens/SignIn').then((m) => ({ Component: m.SignIn })) },
      {
        path: '/',
        lazy: () => import('./screens/Shell').then((m) => ({ Component: m.Shell })),
        children: [
          { index: true, element: <Navigate to="/catalog/products" replace /> },
          { path: 'catalog', element: <Navigate to="/catalog/products" replace /> },
          { path: 'catalog/products', lazy: () => import('./screens/Products').then((m) => ({ Component: m.Products })) },
          { path: 'catalog/products/new', lazy: () => import('./screens/ProductEditor').then((m) => ({ Component: m.ProductEditor })) },
          { path: 'catalog/products/:id', lazy: () => import('./screens/ProductEditor').then((m) => ({ Component: m.ProductEditor })) },
          { path: 'orders', lazy: () => import('./screens/Orders').then((m) => ({ Component: m.Orders })) },
          { path: 'orders/:id', lazy: () => import('./screens/OrderPage').then((m) => ({ Component: m.OrderPage })) },
          { path: 'settings/stores', lazy: () => import('./screens/Stores').then((m) => ({ Component: m.Stores })) },
          { path: 'settings/pages', lazy: () => import('./screens/Pages').then((m) => ({ Component: m.Pages })) },
          { path: 'settings/operators', lazy: () => import('./screens/Operators').then((m) => ({ Component: m.Operators })) },
          { path: 'settings/api-keys', lazy: () => import('./screens/ApiKeys').then((m) => ({ Component: m.ApiKeys })) },
          { path: 'settings/shipping', lazy: () => import('./screens/ShippingSettings').then((m) => ({ Component: m.ShippingSettings })) },
          { path: 'settings/payments', lazy: () => import('./screens/PaymentSettings').then((m) => ({ Component: m.PaymentSettings })) },
          {
            path: 'settings/notifications',
            lazy: () => import('./screens/notifications/Notifications').then((m) => ({ Component: m.Notifications })),
          },
          { path: 'settings/webhooks', lazy: () => import('./screens/webhooks/Webhooks').then((m) => ({ Component: m.Webhooks })) },
          { path: 'settings/audit', lazy: () => import('./screens/AuditLog').then((m) => ({ Component: m.AuditLog })) },
          { path: 'settings', lazy: () => import('./screens/Settings').then((m) => ({ Component: m.Settings })) },
          { path: '*', lazy: () => import('./screens/NotFound').then((m) => ({ Component: m.NotFound })) },
        ],
      },
    ],
  },
];

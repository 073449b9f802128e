import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app.css';
import './i18n';
import { createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { Provider as GraphQLProvider } from 'urql';
import { onUnauthenticated, useClient } from './app-client';
import { routes } from './routes';

const BASE = '/admin';
const router = createBrowserRouter(routes, { basename: BASE });

// A session that ended (expired, signed out elsewhere): to the sign-in screen, then back where the operator was.
onUnauthenticated(() => {
  const { pathname, search } = router.state.location;
  // The router's location has the basename; navigate() adds it.
  const path = pathname.startsWith(`${BASE}/`) ? pathname.slice(BASE.length) : pathname;
  if (path !== '/sign-in') void router.navigate('/sign-in', { replace: true, state: { from: `${path}${search}`, expired: true } });
});

const theme = createTheme({ primaryColor: 'indigo', defaultRadius: 'sm' });

function App() {
  const client = useClient();
  return (
    <GraphQLProvider value={client}>
      <RouterProvider router={router} />
    </GraphQLProvider>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme}>
      <Notifications />
      <App />
    </MantineProvider>
  </StrictMode>,
);

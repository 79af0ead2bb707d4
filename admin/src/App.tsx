import { lazy, Suspense } from 'react';
import {
  Admin,
  Loading,
  AppBar,
  CustomRoutes,
  defaultTheme,
  Layout,
  LocalesMenuButton,
  Login,
  LoginForm,
  Menu,
  Resource,
  TitlePortal,
  useTranslate,
  type LayoutProps,
} from 'react-admin';
import { Route } from 'react-router-dom';
import EventIcon from '@mui/icons-material/Event';
import PlaceIcon from '@mui/icons-material/Place';
import PeopleIcon from '@mui/icons-material/People';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import { Typography } from '@mui/material';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import { withUsers } from './usersProvider';
import { UserCreate, UserEdit, UserList } from './users';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { EventCreate, EventEdit } from './events';
import { EventList } from './event-list';
import { i18nProvider } from './i18nProvider';
import { organizers, venues } from './linked';
import { categories, tags } from './terms';
import { WebhookCreate, WebhookEdit, WebhookList } from './webhooks';
import { useAbilities } from './roles';
import TrashPage from './trash';
import ReviewQueue from './review';
import TranslationsPage from './translations';
import CategoryIcon from '@mui/icons-material/Category';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import DeleteIcon from '@mui/icons-material/Delete';
import RateReviewIcon from '@mui/icons-material/RateReview';
import WebhookIcon from '@mui/icons-material/Webhook';

/** FullCalendar is loaded when the calendar is opened, not with the login screen. */
const CalendarPage = lazy(() => import('./calendar'));

function ConsoleMenu() {
  const translate = useTranslate();
  const can = useAbilities();
  return (
    <Menu>
      <Menu.ResourceItem name="events" />
      <Menu.Item
        to="/calendar"
        primaryText={translate('cal.calendar')}
        leftIcon={<CalendarMonthIcon />}
      />
      <Menu.Item
        to="/review"
        primaryText={translate('cal.review.title')}
        leftIcon={<RateReviewIcon />}
      />
      <Menu.ResourceItem name="venues" />
      <Menu.ResourceItem name="organizers" />
      <Menu.ResourceItem name="categories" />
      <Menu.ResourceItem name="tags" />
      <Menu.Item to="/trash" primaryText={translate('cal.trash.title')} leftIcon={<DeleteIcon />} />
      {can.administer && <Menu.ResourceItem name="webhooks" />}
      {can.administer && <Menu.ResourceItem name="users" />}
    </Menu>
  );
}

const ConsoleAppBar = () => (
  <AppBar toolbar={<LocalesMenuButton />}>
    <TitlePortal />
  </AppBar>
);

const ConsoleLayout = ({ children }: LayoutProps) => (
  <Layout menu={ConsoleMenu} appBar={ConsoleAppBar}>
    {children}
  </Layout>
);

/** The login screen: login and console password, the language switch, and what to type. */
function LoginPage() {
  const translate = useTranslate();
  return (
    <Login>
      <Typography component="h1" variant="h6" align="center" sx={{ mt: 1 }}>
        {translate('cal.title')}
      </Typography>
      <Typography variant="body2" align="center" sx={{ px: 2 }}>
        {translate('cal.login_hint')}
      </Typography>
      <LoginForm />
      <Typography align="center" sx={{ pb: 2 }}>
        <LocalesMenuButton />
      </Typography>
    </Login>
  );
}

/**
 * react-admin's theme with darker blues and a darker red: its focused labels, its app bar's
 * texts and its red delete buttons (on a toolbar's grey or a bulk toolbar's tint) reach the
 * contrast WCAG AA asks for (axe-core's color-contrast, tested in the browser).
 */
const theme = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: '#0d47a1' },
    secondary: { main: '#1a237e' },
    error: { main: '#b71c1c' },
  },
};

/** Venues and organizers: their screens, menu icon and the field that names one. */
const LINKED = [
  { name: 'venues', screens: venues, icon: PlaceIcon, field: 'venue' },
  { name: 'organizers', screens: organizers, icon: PeopleIcon, field: 'organizer' },
];

/** The API's collections, and the administrators' users (usersProvider.ts). */
const consoleData = withUsers(dataProvider);

export function App() {
  return (
    <Admin
      title="cal.title"
      dataProvider={consoleData}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      theme={theme}
      loginPage={LoginPage}
      layout={ConsoleLayout}
      requireAuth
      disableTelemetry
    >
      <Resource
        name="events"
        list={EventList}
        edit={EventEdit}
        create={EventCreate}
        icon={EventIcon}
        recordRepresentation="title"
      />
      {LINKED.map(({ name, screens, icon, field }) => (
        <Resource
          key={name}
          name={name}
          list={screens.list}
          edit={screens.edit}
          create={screens.create}
          icon={icon}
          recordRepresentation={field}
        />
      ))}
      <Resource name="categories" {...categories} icon={CategoryIcon} recordRepresentation="name" />
      <Resource name="tags" {...tags} icon={LocalOfferIcon} recordRepresentation="name" />
      <Resource
        name="webhooks"
        list={WebhookList}
        edit={WebhookEdit}
        create={WebhookCreate}
        icon={WebhookIcon}
        recordRepresentation="url"
      />
      <Resource
        name="users"
        list={UserList}
        edit={UserEdit}
        create={UserCreate}
        icon={ManageAccountsIcon}
        recordRepresentation="username"
      />
      <CustomRoutes>
        <Route path="/trash" element={<TrashPage />} />
        <Route path="/review" element={<ReviewQueue />} />
        <Route path="/events/:id/translations" element={<TranslationsPage />} />
        <Route
          path="/calendar"
          element={
            <Suspense fallback={<Loading />}>
              <CalendarPage />
            </Suspense>
          }
        />
      </CustomRoutes>
    </Admin>
  );
}

import type { HeaderActions } from '@/components/header-bar';
import { setLocale, switchTenant } from './actions';

/** The server actions of the shared header's switchers, handed to SiteHeader and HeaderBar as a prop. */
export const HEADER_ACTIONS: HeaderActions = { setLocale, switchTenant };

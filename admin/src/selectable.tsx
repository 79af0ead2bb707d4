import type { ReactNode } from 'react';
import { ThemeProvider, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * Lists with row checkboxes (bulk actions): react-admin 5.15 names each row's checkbox on
 * MUI's wrapper `<span>`, where ARIA forbids a name, and leaves the box itself unnamed
 * (axe-core's aria-prohibited-attr and label). Inside this, the wrapper is a named group and
 * the box carries the name too; the "select all" box keeps its own.
 */
export function Selectable({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const name = translate('ra.action.select_row');
  const nested = (outer: Theme): Theme => ({
    ...outer,
    components: {
      ...outer.components,
      MuiCheckbox: {
        ...outer.components?.MuiCheckbox,
        defaultProps: {
          ...outer.components?.MuiCheckbox?.defaultProps,
          slotProps: { root: { role: 'group' }, input: { 'aria-label': name } },
        },
      },
    },
  });
  return <ThemeProvider theme={nested}>{children}</ThemeProvider>;
}

import type { ReactNode } from 'react';
import { Box, ThemeProvider, type Theme } from '@mui/material';
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
  // On a phone a table wider than the screen scrolls inside its own box, not the whole page:
  // there the box adds no width of its own to the page (width 0) and takes its container's.
  return (
    <ThemeProvider theme={nested}>
      <Box
        sx={{
          overflowX: { xs: 'auto', sm: 'visible' },
          width: { xs: 0, sm: 'auto' },
          minWidth: { xs: '100%', sm: 0 },
        }}
      >
        {children}
      </Box>
    </ThemeProvider>
  );
}

import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate, type Identifier } from 'react-admin';

/** Provisional ids of occurrences start here (CONTRACT §9); real ids stay below. */
const OCCURRENCE_ID_BASE = 10_000_000;
export const isOccurrence = (id: Identifier | undefined) => Number(id) >= OCCURRENCE_ID_BASE;

/** How a change of one occurrence applies (`_tec_update_type`). */
const UPDATE_TYPES = ['single', 'upcoming', 'all'] as const;
export type UpdateType = (typeof UPDATE_TYPES)[number];

/**
 * The question for a change of one occurrence of a series: this one, this and the following
 * ones, or all. `choice` renders each answer (a button, or the form's save button).
 */
export function UpdateTypeDialog(props: {
  open: boolean;
  onClose: () => void;
  choice: (type: UpdateType, label: string) => ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Dialog open={props.open} onClose={props.onClose} aria-labelledby="update-type-title">
      <DialogTitle id="update-type-title">{translate('cal.occurrence.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('cal.occurrence.question')}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {UPDATE_TYPES.map((type) => props.choice(type, `cal.occurrence.${type}`))}
        <Button onClick={props.onClose}>{translate('ra.action.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}

import {
  BulkUpdateButton,
  Datagrid,
  FunctionField,
  List,
  TextField,
  UpdateButton,
  type RaRecord,
} from 'react-admin';
import CheckIcon from '@mui/icons-material/Check';
import UndoIcon from '@mui/icons-material/Undo';
import { When } from './event-list';
import { useAbilities } from './roles';
import { useRereadLists } from './refresh';
import { Selectable } from './selectable';

const APPROVED = { status: 'publish' };
/** A rejected submission goes back to its author as a draft (WordPress has no "rejected"). */
const REJECTED = { status: 'draft' };
const approveIcon = <CheckIcon />;
const rejectIcon = <UndoIcon />;

/**
 * The review queue: submitted events (`pending`, a contributor's "Submit for review"). Those
 * who may publish approve (publish) or reject (back to draft); a contributor sees their own
 * submissions waiting. The server decides what each may read and write.
 */
export default function ReviewQueue() {
  const can = useAbilities();
  const reread = useRereadLists();
  return (
    <List
      resource="events"
      filter={{ status: 'pending' }}
      disableSyncWithLocation
      storeKey="review"
      exporter={false}
      title="cal.review.title"
      actions={false}
      empty={false}
    >
      <Selectable>
        <Datagrid
          rowClick="edit"
          bulkActionButtons={
            can.publish ? (
              <BulkUpdateButton
                label="cal.review.approve"
                data={APPROVED}
                mutationMode="pessimistic"
                mutationOptions={reread}
                icon={approveIcon}
              />
            ) : (
              false
            )
          }
        >
          <TextField source="title" sortable={false} />
          <FunctionField
            source="start_date"
            sortable={false}
            render={(record: RaRecord) => <When record={record} />}
          />
          <TextField
            source="venue.venue"
            label="resources.events.fields.venue_id"
            sortable={false}
          />
          {can.publish && (
            <UpdateButton
              label="cal.review.approve"
              data={APPROVED}
              mutationMode="pessimistic"
              mutationOptions={reread}
              icon={approveIcon}
            />
          )}
          {can.publish && (
            <UpdateButton
              label="cal.review.reject"
              data={REJECTED}
              mutationMode="pessimistic"
              mutationOptions={reread}
              icon={rejectIcon}
            />
          )}
        </Datagrid>
      </Selectable>
    </List>
  );
}

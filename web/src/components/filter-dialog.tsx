import type { TypeFilter } from '@forkvote/contracts';
import { Modal } from 'antd';
import { TypeFilterEditor } from './type-filter-editor';

/** SPEC §2's Filtering dialog: which kinds of places to include and exclude. */
export default function FilterDialog({
  open,
  value,
  onChange,
  onClose,
}: {
  open: boolean;
  value: TypeFilter;
  onChange: (filter: TypeFilter) => void;
  onClose: () => void;
}) {
  return (
    <Modal title="Filtering" open={open} onCancel={onClose} onOk={onClose} okText="Done" width={640}>
      <TypeFilterEditor value={value} onChange={onChange} />
    </Modal>
  );
}

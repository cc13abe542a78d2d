import { Drawer } from 'antd';
import type { ReactNode } from 'react';
import { AntdScope } from '../../app/antd-scope';

/** The small-screen menu: a side sheet, loaded the first time it opens (most visits never open it). */
export default function MenuDrawer({
  open,
  onClose,
  children,
}: {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <AntdScope>
      <Drawer title={<strong>Menu</strong>} placement="right" open={open} onClose={onClose} size={280}>
        {children}
      </Drawer>
    </AntdScope>
  );
}

import {
  ALL_RESTAURANTS,
  excludeType,
  FILTER_CATEGORIES,
  includeGroup,
  includeType,
  isGroupIncluded,
  placeTypeLabel,
  PLACE_TYPES,
  removeExcludedType,
  removeIncludedType,
  selectAllRestaurants,
  type TypeFilter,
} from '@forkvote/contracts';
import { Checkbox, Collapse, Form, Select, Space, Typography } from 'antd';

const OPTIONS = PLACE_TYPES.filter((t) => t !== ALL_RESTAURANTS).map((type) => ({
  value: type,
  label: placeTypeLabel(type),
}));

/** Included and excluded place types, applying the SPEC §4 filter rules on every change. */
export function TypeFilterEditor({
  value,
  onChange,
}: {
  value: TypeFilter;
  onChange: (next: TypeFilter) => void;
}) {
  const allSelected = value.included.length === 1 && value.included[0] === ALL_RESTAURANTS;
  const setIncluded = (next: string[]) => {
    let filter = value;
    for (const type of value.included) if (!next.includes(type)) filter = removeIncludedType(filter, type);
    for (const type of next) if (!filter.included.includes(type)) filter = includeType(filter, type);
    onChange(filter);
  };
  const setExcluded = (next: string[]) => {
    let filter = value;
    for (const type of value.excluded) if (!next.includes(type)) filter = removeExcludedType(filter, type);
    for (const type of next) if (!filter.excluded.includes(type)) filter = excludeType(filter, type);
    onChange(filter);
  };

  return (
    <Space direction="vertical" size="middle" className="fv-full-width">
      <Checkbox
        checked={allSelected}
        onChange={(e) => e.target.checked && onChange(selectAllRestaurants(value))}
      >
        All restaurants
      </Checkbox>
      <Form.Item label="Include" className="fv-tight">
        <Select
          mode="multiple"
          allowClear
          placeholder="All restaurants"
          aria-label="Included restaurant types"
          options={OPTIONS}
          value={allSelected ? [] : value.included}
          onChange={setIncluded}
          optionFilterProp="label"
        />
      </Form.Item>
      <Form.Item label="Exclude" className="fv-tight">
        <Select
          mode="multiple"
          allowClear
          placeholder="Nothing excluded"
          aria-label="Excluded restaurant types"
          options={OPTIONS}
          value={value.excluded}
          onChange={setExcluded}
          optionFilterProp="label"
        />
      </Form.Item>
      <Collapse
        size="small"
        items={FILTER_CATEGORIES.map((category) => ({
          key: category.name,
          label: category.name,
          children: (
            <Space wrap>
              {category.groups.map((group) => (
                <Checkbox
                  key={group.name}
                  checked={isGroupIncluded(value, group.types)}
                  onChange={(e) => onChange(includeGroup(value, group.types, e.target.checked))}
                >
                  {group.name}
                  <Typography.Text type="secondary"> ({group.types.length})</Typography.Text>
                </Checkbox>
              ))}
            </Space>
          ),
        }))}
      />
    </Space>
  );
}

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
      <TypeSelect
        label="Include"
        ariaLabel="Included restaurant types"
        placeholder="All restaurants"
        value={allSelected ? [] : value.included}
        onChange={setIncluded}
      />
      <TypeSelect
        label="Exclude"
        ariaLabel="Excluded restaurant types"
        placeholder="Nothing excluded"
        value={value.excluded}
        onChange={setExcluded}
      />
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

/** One of the two type lists (include or exclude): a searchable multiple choice of every place type. */
function TypeSelect(props: {
  label: string;
  ariaLabel: string;
  placeholder: string;
  value: string[];
  onChange: (types: string[]) => void;
}) {
  return (
    <Form.Item label={props.label} className="fv-tight">
      <Select
        mode="multiple"
        allowClear
        placeholder={props.placeholder}
        aria-label={props.ariaLabel}
        options={OPTIONS}
        value={props.value}
        onChange={props.onChange}
        optionFilterProp="label"
      />
    </Form.Item>
  );
}

import { PlaceType } from './place-types';

export interface FilterGroup {
  name: string;
  types: PlaceType[];
}

export interface FilterCategory {
  name: string;
  groups: FilterGroup[];
}

/**
 * The filtering dialog's categories (SPEC §3). Membership is by type, and a type may sit in several
 * groups (cafe is casual dining, breakfast and coffee). 'All' is the `restaurant` marker, not a category.
 */
export const FILTER_CATEGORIES: FilterCategory[] = [
  {
    name: 'Cuisine Type',
    groups: [
      {
        name: 'Asian',
        types: [
          'asian_restaurant',
          'chinese_restaurant',
          'japanese_restaurant',
          'korean_restaurant',
          'thai_restaurant',
          'vietnamese_restaurant',
          'indonesian_restaurant',
          'ramen_restaurant',
          'sushi_restaurant',
        ],
      },
      {
        name: 'European',
        types: [
          'french_restaurant',
          'italian_restaurant',
          'spanish_restaurant',
          'greek_restaurant',
          'pizza_restaurant',
          'pub',
        ],
      },
      {
        name: 'Middle Eastern & Mediterranean',
        types: [
          'mediterranean_restaurant',
          'middle_eastern_restaurant',
          'lebanese_restaurant',
          'turkish_restaurant',
          'greek_restaurant',
          'afghani_restaurant',
        ],
      },
      {
        name: 'American & Western',
        types: [
          'american_restaurant',
          'hamburger_restaurant',
          'barbecue_restaurant',
          'steak_house',
          'diner',
          'bar_and_grill',
          'sandwich_shop',
          'breakfast_restaurant',
          'seafood_restaurant',
        ],
      },
      { name: 'Latin American', types: ['mexican_restaurant', 'brazilian_restaurant', 'acai_shop'] },
      { name: 'Indian', types: ['indian_restaurant'] },
      { name: 'African', types: ['african_restaurant'] },
    ],
  },
  {
    name: 'Dining Style',
    groups: [
      {
        name: 'Quick Service / Fast Food',
        types: [
          'hamburger_restaurant',
          'pizza_restaurant',
          'sandwich_shop',
          'meal_takeaway',
          'food_court',
          'deli',
          'bagel_shop',
          'donut_shop',
          'ice_cream_shop',
        ],
      },
      {
        name: 'Casual Dining',
        types: [
          'diner',
          'cafe',
          'bar_and_grill',
          'pub',
          'barbecue_restaurant',
          'brunch_restaurant',
          'sushi_restaurant',
          'ramen_restaurant',
          'seafood_restaurant',
        ],
      },
      {
        name: 'Fine Dining',
        types: [
          'fine_dining_restaurant',
          'steak_house',
          'french_restaurant',
          'sushi_restaurant',
          'wine_bar',
          'seafood_restaurant',
        ],
      },
    ],
  },
  {
    name: 'Meal Type / Time',
    groups: [
      {
        name: 'Breakfast and Brunch',
        types: [
          'breakfast_restaurant',
          'brunch_restaurant',
          'bagel_shop',
          'bakery',
          'cafe',
          'diner',
          'donut_shop',
        ],
      },
      {
        name: 'Desserts and Sweets',
        types: [
          'dessert_restaurant',
          'dessert_shop',
          'ice_cream_shop',
          'candy_store',
          'chocolate_shop',
          'chocolate_factory',
          'confectionery',
          'donut_shop',
          'bakery',
        ],
      },
    ],
  },
  {
    name: 'Specialty Diet',
    groups: [{ name: 'Vegan and Vegetarian', types: ['vegan_restaurant', 'vegetarian_restaurant'] }],
  },
  {
    name: 'Drink-Focused',
    groups: [
      {
        name: 'Coffee and Tea',
        types: ['cafe', 'coffee_shop', 'tea_house', 'cat_cafe', 'dog_cafe', 'juice_shop', 'acai_shop'],
      },
      { name: 'Bars and Alcoholic Beverages', types: ['bar', 'pub', 'wine_bar', 'bar_and_grill'] },
    ],
  },
  {
    name: 'Service Style',
    groups: [
      { name: 'Self-Serve/Buffet', types: ['buffet_restaurant', 'cafeteria', 'food_court'] },
      { name: 'Meal Delivery and Takeaway', types: ['meal_delivery', 'meal_takeaway'] },
    ],
  },
];

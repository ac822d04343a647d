# cmocka tests of the orders module (tests/unit/orders_test.c).
TEST_DEPS_orders := util orders

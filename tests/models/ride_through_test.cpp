// ride_through_test.cpp: the equipment's answer to a grid disturbance against its tolerances
// (models/ride_through.h, docs/models/ride_through.md)
#include <catch2/catch.hpp>

#include "models/ride_through.h"

using namespace dctwin;

TEST_CASE("PSU hold-up: the ITIC curve's 0 V for 20 ms passes, longer drops",
          "[ride_through][models]") {
  const RideThroughParams p;  // 20 ms hold-up, runs down to 70 % [K143, K144]
  CHECK(psuRidesThrough(p, 0.0, 0.020));
  CHECK(psuRidesThrough(p, 0.0, 0.015));
  CHECK_FALSE(psuRidesThrough(p, 0.0, 0.021));
  CHECK(psuRidesThrough(p, 0.70, 0.5));  // ITIC: 70 % for 0.5 s
  CHECK(psuRidesThrough(p, 0.80, 10));   // ... 80 % for 10 s
  CHECK_FALSE(psuRidesThrough(p, 0.5, 0.1));
}

TEST_CASE("UPS input window: voltage below its low end or frequency outside it transfers",
          "[ride_through][models]") {
  const RideThroughParams p;  // 70 % ... , +/- 3 Hz [K146]
  CHECK(upsInputInWindow(p, 0.75, 0));
  CHECK(upsInputInWindow(p, 0.70, 0));
  CHECK_FALSE(upsInputInWindow(p, 0.69, 0));
  CHECK(upsInputInWindow(p, 1.0, -3.0));
  CHECK_FALSE(upsInputInWindow(p, 1.0, -3.1));
  CHECK_FALSE(upsInputInWindow(p, 1.0, 3.5));
}

TEST_CASE("drives trip below their undervoltage level only past their ride-through",
          "[ride_through][models]") {
  const RideThroughParams p;  // 60 % for 50 ms [K147]
  CHECK_FALSE(driveTrips(p, 0.65, 10));
  CHECK_FALSE(driveTrips(p, 0.3, 0.04));
  CHECK(driveTrips(p, 0.3, 0.06));
  CHECK(driveTrips(p, 0.0, 1));
}

TEST_CASE("a disturbance's outcome: drops, transfer and re-transfer, trips and restarts, generator",
          "[ride_through][models]") {
  RideThroughParams p;
  p.ups_retransfer_delay = 10;
  p.drive_restart_delay = 4;
  // a 200 ms sag to 50 %: every piece acts; too short for a 10 s generator
  RideThroughOutcome o = rideThroughOutcome(p, {100, 0.2, 0.5, 0}, 10);
  CHECK(o.psu_drop);
  CHECK(o.psu_drop_at == Approx(100.02));
  CHECK(o.ups_transfer);
  CHECK(o.ups_back_at == Approx(110.2));
  CHECK(o.drives_trip);
  CHECK(o.drives_trip_at == Approx(100.05));
  CHECK(o.drives_back_at == Approx(104.2));
  CHECK_FALSE(o.generator);
  // 15 ms at 0 V: the PSUs and the drives ride through, the UPS still transfers
  o = rideThroughOutcome(p, {0, 0.015, 0.0, 0}, 10);
  CHECK_FALSE(o.psu_drop);
  CHECK_FALSE(o.drives_trip);
  CHECK(o.ups_transfer);
  // a 15 s sag to 40 %: the generator transfers at its start delay
  o = rideThroughOutcome(p, {0, 15, 0.4, 0}, 10);
  CHECK(o.generator);
  CHECK(o.generator_at == Approx(10));
  // a 2 Hz excursion rides through; a 4 Hz one transfers the UPS, nothing else
  o = rideThroughOutcome(p, {0, 5, 1.0, -2}, 10);
  CHECK_FALSE((o.psu_drop || o.ups_transfer || o.drives_trip || o.generator));
  o = rideThroughOutcome(p, {0, 5, 1.0, 4}, 10);
  CHECK(o.ups_transfer);
  CHECK_FALSE((o.psu_drop || o.drives_trip));
  CHECK(o.ups_back_at == Approx(15));
}

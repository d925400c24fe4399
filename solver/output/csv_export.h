// csv_export.h: series of a results file as CSV for spreadsheets (`dctwin export`)
//
// wide: one row per output time, a time column and one column per series column, headed
//   time (s),/facility/P_IT (W),/rack/T_return[A01] (K),/rack/T_return[A02] (K),...
// long (tidy): one row per value, time,path,column,value,unit
//   0,/rack/T_return,A01,318.15,K
// Columns are labelled by the layout's names (/rack/names, /cdu/names, /job/names,
// /busway/names; a GPU as RACK:SLOT). /power series have their own time axis (/power/time) and
// cannot be mixed with the output-row series in one wide table.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "solver/output/results_reader.h"

namespace dctwin {

// the time series of a file matching the globs (series_filter.h), in path order (no patterns:
// every series on /time, not the /power ones); throws ResultsError naming a pattern that matches
// none, with the nearest paths
std::vector<std::string> selectSeries(const ResultsData& d,
                                      const std::vector<std::string>& patterns);

// the widest table a spreadsheet opens: 16,384 columns (Excel's worksheet limit [P25]; LibreOffice
// Calc since 7.4)
constexpr std::size_t kSpreadsheetColumns = 16384;
// the series of `paths`, in order, whose columns fit a wide table of at most max_columns columns
// with its time column (a series that would pass the limit is left out whole, into *left_out,
// and the next ones are tried); every series when they all fit
std::vector<std::string> fitWidth(const ResultsData& d, const std::vector<std::string>& paths,
                                  std::size_t max_columns, std::vector<std::string>* left_out);

// writes the selected series; throws ResultsError for a wide table mixing /time and /power/time.
// display_units: each series of the output table in its display unit (degC for an absolute
// temperature, K for a difference, kW, L/min, kPa: DCTWIN_UNITS, observables.h), named in its
// header; else SI as in the file. The time column stays in s
void writeCsv(const ResultsData& d, const std::vector<std::string>& paths, bool long_format,
              std::ostream& out, bool display_units = false);

// the label of column `col` of series `path` ("A01", "CDU-1", "A01:3"; the index when unnamed)
std::string columnLabel(const ResultsData& d, const std::string& path, std::size_t col);

}  // namespace dctwin

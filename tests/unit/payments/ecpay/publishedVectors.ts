// ECPay's published test merchant and the notification example of its SDK (GetCheckoutResponse.php), with the
// CheckMacValue it publishes: the one place both the MAC and the notification tests take them from.
export const TEST_MERCHANT = { merchantId: '3002607', hashKey: 'pwFHCqoQZGmho4w6', hashIV: 'EkRm7iFT261dpevs' }

export const SDK_NOTIFICATION = {
  MerchantID: '3002607',
  MerchantTradeNo: 'WPLL4E341E122DB44D62',
  PaymentDate: '2019/05/09 00:01:21',
  PaymentType: 'Credit_CreditCard',
  PaymentTypeChargeFee: '1',
  RtnCode: '1',
  RtnMsg: '交易成功',
  SimulatePaid: '0',
  TradeAmt: '500',
  TradeDate: '2019/05/09 00:00:18',
  TradeNo: '1905090000188278',
  CheckMacValue: '6E7F053EF215FC851A050A2FF01D72CBE440EA138DC3E905647985DDF236FD25',
}
